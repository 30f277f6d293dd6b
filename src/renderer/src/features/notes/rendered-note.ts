import { createContext, useContext } from 'react';
import type { ResolvedLink } from '../../../../shared/index-domain';
import type { OpenNote } from './WikiLink';

/** What the Markdown components need of the note they render; each MarkdownNote provides its own. */
export interface RenderedNote {
  /** Vault-relative path of the note. */
  path: string;
  byPosition: Map<string, ResolvedLink>;
  /** The embedding chain for embeds inside this note: the chain and this note. */
  inner: string[];
  onOpen: OpenNote;
}

export const RenderedNoteContext = createContext<RenderedNote | null>(null);

export function useRenderedNote(): RenderedNote {
  const note = useContext(RenderedNoteContext);
  if (!note) throw new Error('Markdown components render inside a MarkdownNote.');
  return note;
}

export const positionKey = (line: unknown, column: unknown) => `${String(line)}:${String(column)}`;

export const linkAt = (note: RenderedNote, line: unknown, column: unknown) =>
  note.byPosition.get(positionKey(line, column));
