import type { ChatReference } from '../../../shared/chat-domain';
import { selectionPreviewChars, type NoteSelection } from '../../../shared/selection-domain';
import { AppError } from '../../app-error';
import type { ToolVault } from '../../chat/note-locator';
import type { DocumentNumbers } from '../../tools/tool-registry';
import type { ContextItemInput } from '../context-types';
import type { DirectReferences } from './linked-notes';

const askHint =
  'The user selected this passage in a note they are reading and asks about it (cite it by its document number, like [1]):';

/** The note a selection comes from, as the index knows it; an error in words when it is not a note of the vault. */
export function selectedNote(selection: NoteSelection, vault: ToolVault): { path: string; title: string } {
  const note = vault.index.note(selection.path);
  if (!note) {
    throw new AppError(
      'not-found',
      `The selection comes from "${selection.path}", which is not a note of the open vault; open the note and select again.`,
    );
  }
  return { path: note.path, title: note.title };
}

/**
 * A selected passage as one more linked note of the question: a numbered document (the note's number in
 * the session) holding the passage with its note, heading and the notes embedded in it, and a reference
 * of kind `selection`. The context engine fits it with the linked notes; one too large for its share is
 * cut to its head and tail, and the cut says where the rest is.
 */
export function withSelection(
  direct: DirectReferences,
  selection: NoteSelection,
  vault: ToolVault,
  numbers: DocumentNumbers,
): DirectReferences {
  const { path, title } = selectedNote(selection, vault);
  const document = numbers(path, title);
  const { heading, text } = selection;
  const embedded = selection.embeds?.length ? { embedded: selection.embeds } : {};
  const block = (content: Record<string, unknown>) =>
    `${askHint}\n${JSON.stringify({ document, title, path, heading, ...embedded, ...content })}`;
  const item: ContextItemInput = {
    kind: 'reference',
    label: `Selection from ${title}`,
    path,
    include: 'direct',
    text: block({ selection: text }),
    fallback: block({
      selection: `${text.slice(0, 500)}…`,
      note: 'Only the start of the selection fits here: call read_note to read the note it comes from.',
    }),
    stub: block({ note: 'The selection does not fit here: call read_note to read the note it comes from.' }),
    readHint: `the whole selection is in the note; call read_note with "${path}"`,
  };
  const reference: ChatReference = {
    path,
    title,
    kind: 'selection',
    toolCallId: null,
    document,
    subpath: heading,
    mode: null,
    tokens: null,
    summary: text.trim().slice(0, selectionPreviewChars),
  };
  return { references: [reference, ...direct.references], items: [item, ...direct.items] };
}
