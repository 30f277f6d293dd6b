import type { ChatReference } from '../../shared/chat-domain';
import { extractNote } from '../../shared/markdown/extract-note';
import { countTokens } from '../context/token-count';
import type { ToolVault } from './note-locator';
import type { DocumentNumbers } from './vault-tools';

export interface DirectReferences {
  references: ChatReference[];
  /** What the model is given after the user's words; empty when the message links no notes. */
  context: string;
}

/**
 * Resolves the wikilinks of a user's message and decides, in order, whether each note goes to the model
 * whole (while it fits `budgetTokens`) or as its summary with an instruction to call read_note.
 */
export async function directReferences(
  text: string,
  vault: ToolVault,
  numbers: DocumentNumbers,
  budgetTokens: number,
): Promise<DirectReferences> {
  const { links } = extractNote(text, 'message.md');
  const references: ChatReference[] = [];
  const blocks: string[] = [];
  const seen = new Set<string>();
  let remaining = budgetTokens;
  for (const link of links) {
    const found = vault.index.resolve({ target: link.target, subpath: link.subpath }, '');
    const key = found.path ? `${found.path}#${link.subpath ?? ''}` : `broken:${link.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const info = found.path && found.kind === 'note' ? vault.index.note(found.path) : null;
    if (!info) {
      references.push({
        path: link.target,
        title: link.target,
        kind: 'broken',
        toolCallId: null,
        document: null,
        subpath: link.subpath,
        mode: null,
        tokens: null,
        summary: found.reason ?? 'No such note.',
      });
      blocks.push(`The note [[${link.target}]] does not exist in the vault.`);
      continue;
    }
    const document = numbers(info.path, info.title);
    const summary = vault.summary(info.path);
    const content = await vault
      .readNote(info.path)
      .then((note) => note.content)
      .catch(() => null);
    const whole =
      content === null ? null : JSON.stringify({ document, title: info.title, path: info.path, content });
    const wholeTokens = whole === null ? Number.POSITIVE_INFINITY : countTokens(whole);
    const inline = wholeTokens <= remaining;
    const block = inline
      ? whole!
      : JSON.stringify({
          document,
          title: info.title,
          path: info.path,
          summary,
          note: 'Only the summary fits here: call read_note to read this note.',
        });
    const tokens = inline ? wholeTokens : countTokens(block);
    remaining -= tokens;
    blocks.push(block);
    references.push({
      path: info.path,
      title: info.title,
      kind: 'direct',
      toolCallId: null,
      document,
      subpath: link.subpath,
      mode: inline ? 'inline' : 'summary',
      tokens,
      summary,
    });
  }
  return {
    references,
    context: blocks.length ? `Notes the user linked in this message:\n${blocks.join('\n')}` : '',
  };
}
