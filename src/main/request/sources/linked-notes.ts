import type { ChatReference } from '../../../shared/chat-domain';
import { extractNote } from '../../../shared/markdown/extract-note';
import type { ContextItemInput } from '../context-types';
import type { ToolVault } from '../../chat/note-locator';
import type { DocumentNumbers } from '../../tools/tool-registry';

export interface DirectReferences {
  references: ChatReference[];
  /** What the model is given after the user's words; empty when the message links no notes. */
  context: string;
  /** The same notes as items of the request, each with its summary as the stand-in when it does not fit. */
  items: ContextItemInput[];
}

const linkedNotesHeading = 'Notes the user linked in this message:';
/** The system prompt asks for citations once the model has searched; linked notes say it themselves. */
const citeHint = 'Notes the user linked in this message (cite them by their document number, like [1]):';

/**
 * Resolves the wikilinks of a user's message and decides, in order, whether each note goes to the model
 * whole (while it fits `room.budget`) or as its summary with an instruction to call read_note. Notes are
 * counted with `room.tokens`, the context engine's count for the model, in the budget's unit.
 */
export async function directReferences(
  text: string,
  vault: ToolVault,
  numbers: DocumentNumbers,
  room: { budget: number; tokens: (text: string) => number },
): Promise<DirectReferences> {
  const { links } = extractNote(text, 'message.md');
  const references: ChatReference[] = [];
  const blocks: string[] = [];
  const items: ContextItemInput[] = [];
  const seen = new Set<string>();
  let remaining = room.budget;
  for (const link of links) {
    const found = vault.index.resolveInMessage({ target: link.target, subpath: link.subpath });
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
      const missing = `The note [[${link.target}]] does not exist in the vault.`;
      blocks.push(missing);
      items.push({ kind: 'reference', label: `[[${link.target}]]`, include: 'direct', text: missing });
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
    const wholeTokens = whole === null ? Number.POSITIVE_INFINITY : room.tokens(whole);
    const inline = wholeTokens <= remaining;
    const summaryBlock = JSON.stringify({
      document,
      title: info.title,
      path: info.path,
      summary,
      note: 'Only the summary fits here: call read_note to read this note.',
    });
    const block = inline ? whole! : summaryBlock;
    items.push({
      kind: 'reference',
      label: info.title,
      path: info.path,
      include: 'direct',
      // The whole note when it could be read: the context engine cuts it or sends the summary instead.
      text: whole ?? block,
      fallback: summaryBlock,
      readHint: `call read_note with "${info.path}"`,
    });
    const tokens = inline ? wholeTokens : room.tokens(block);
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
  const first = items[0];
  if (first) {
    first.text = `${citeHint}\n${first.text}`;
    if (first.fallback !== undefined) first.fallback = `${citeHint}\n${first.fallback}`;
  }
  return {
    references,
    context: blocks.length ? `${linkedNotesHeading}\n${blocks.join('\n')}` : '',
    items,
  };
}
