import type { NoteHash } from '../index/note-catalog';

/** Where a folder's notes come from: the index's list, with content hashes, and the vault's reader. */
export interface FolderNoteSources {
  notesUnder(folder: string): NoteHash[];
  readNote(path: string): Promise<{ content: string }>;
}

/**
 * The notes of one folder, each turned into a `T` once per content and title: a note edited on disk is
 * read again on the next list, since the watcher updates the index's hashes. `parse` is given the note's
 * text, or the error that kept it from being read. Rules and saved prompts are both kept this way.
 */
export class FolderNotes<T> {
  private readonly cache = new Map<string, { hash: string; title: string; value: T }>();

  constructor(
    private readonly sources: FolderNoteSources,
    private readonly parse: (note: NoteHash, content: string | Error) => T,
  ) {}

  async list(folder: string): Promise<T[]> {
    const notes = this.sources.notesUnder(folder.replace(/^\/+|\/+$/g, ''));
    const values: T[] = [];
    const present = new Set<string>();
    for (const note of notes) {
      present.add(note.path);
      const cached = this.cache.get(note.path);
      const value =
        cached?.hash === note.hash && cached.title === note.title ? cached.value : await this.read(note);
      this.cache.set(note.path, { hash: note.hash, title: note.title, value });
      values.push(value);
    }
    for (const path of this.cache.keys()) if (!present.has(path)) this.cache.delete(path);
    return values;
  }

  private async read(note: NoteHash): Promise<T> {
    const content = await this.sources
      .readNote(note.path)
      .then((file) => file.content)
      .catch((error: Error) => error);
    return this.parse(note, content);
  }
}
