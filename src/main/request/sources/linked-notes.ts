import type { ChatReference } from '../../../shared/chat-domain';
import { extractNote } from '../../../shared/markdown/extract-note';
import type { ContextItemInput } from '../context-types';
import type { ToolVault } from '../../chat/note-locator';
import type { DocumentNumbers } from '../../tools/tool-registry';

export interface DirectReferences {
  /** The notes as references of the message; what each cost is recorded once a request has sized it. */
  references: ChatReference[];
  /**
   * The same notes as items of the request, each whole with its summary and its title as smaller
   * stand-ins: the context engine decides which one goes, and why.
   */
  items: ContextItemInput[];
}

/** The system prompt asks for citations once the model has searched; linked notes say it themselves. */
const citeHint = 'Notes the user linked in this message (cite them by their document number, like [1]):';

/**
 * Resolves the wikilinks of a user's message and reads each linked note: its text as a numbered
 * document, its summary and its title with how to read it. It sizes nothing: the context engine fits
 * them to the request, in the budget's unit, and records the form it chose.
 */
export async function directReferences(
  text: string,
  vault: ToolVault,
  numbers: DocumentNumbers,
): Promise<DirectReferences> {
  const { links } = extractNote(text, 'message.md');
  const references: ChatReference[] = [];
  const items: ContextItemInput[] = [];
  const seen = new Set<string>();
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
      items.push({ kind: 'reference', label: `[[${link.target}]]`, include: 'direct', text: missing });
      continue;
    }
    const document = numbers(info.path, info.title);
    const summary = vault.summary(info.path);
    const content = await vault
      .readNote(info.path)
      .then((note) => note.content)
      .catch(() => null);
    const { title, path } = info;
    const summaryBlock = JSON.stringify({
      document,
      title,
      path,
      summary,
      note: 'Only the summary fits here: call read_note to read this note.',
    });
    const titleBlock = JSON.stringify({
      document,
      title,
      path,
      note: 'Not even its summary fits here: call read_note to read this note.',
    });
    items.push({
      kind: 'reference',
      label: title,
      path,
      include: 'direct',
      // A note that could not be read is given as its summary.
      text: content === null ? summaryBlock : JSON.stringify({ document, title, path, content }),
      fallback: summaryBlock,
      stub: titleBlock,
      readHint: `call read_note with "${path}"`,
    });
    references.push({
      path,
      title,
      kind: 'direct',
      toolCallId: null,
      document,
      subpath: link.subpath,
      mode: null,
      tokens: null,
      summary,
      ...(found.viaAlias ? { viaAlias: link.target.trim() } : {}),
    });
  }
  const first = items[0];
  if (first) {
    first.text = `${citeHint}\n${first.text}`;
    if (first.fallback !== undefined) first.fallback = `${citeHint}\n${first.fallback}`;
    if (first.stub !== undefined) first.stub = `${citeHint}\n${first.stub}`;
  }
  return { references, items };
}
