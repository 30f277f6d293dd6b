import type { IndexWarning } from '../../shared/index-domain';
import { keyHash, linkKey } from '../../shared/links/link-keys';
import type { ResolverNote } from '../../shared/links/link-resolver';
import { linkOccurrences, type LinkOccurrence } from '../../shared/markdown/note-links';
import type { SqliteDatabase } from '../storage/database';
import type { StoredResolution } from './link-resolutions';
import type { ParsedNote } from './parsed-note';
import type { PassProfile } from './pass-profile';
import { searchColumns } from './search-columns';

export interface FileState {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** A link of a note that is written (`noteId`), itself not written yet. */
export interface PendingLink {
  noteId: number;
  /** The linking note's path. */
  source: string;
  link: LinkOccurrence;
  /** The link's source line, trimmed. */
  context: string;
}

/** Some paths, and every path inside some folders. */
export interface StateScope {
  paths: string[];
  folders: string[];
}

/** The SQL that writes a vault's index: parsed notes, attachments, warnings; and the files' states. */
export class IndexStore {
  private readonly statements;

  constructor(readonly db: SqliteDatabase) {
    this.statements = {
      noteId: db.prepare<[string], { id: number }>('SELECT id FROM notes WHERE path = ?'),
      deleteNote: db.prepare('DELETE FROM notes WHERE id = ?'),
      deleteFts: db.prepare('DELETE FROM notes_fts WHERE rowid = ?'),
      deleteNoteWarnings: db.prepare("DELETE FROM warnings WHERE path = ? AND kind = 'note'"),
      insertNote: db.prepare(
        `INSERT INTO notes (path, title, word_count, size, mtime_ms, hash)
         VALUES (@path, @title, @wordCount, @size, @mtimeMs, @hash)`,
      ),
      insertLead: db.prepare('INSERT INTO note_leads (note_id, lead) VALUES (?, ?)'),
      insertHeading: db.prepare('INSERT INTO headings (note_id, level, text, line) VALUES (?, ?, ?, ?)'),
      insertBlock: db.prepare('INSERT INTO blocks (note_id, block_id, line) VALUES (?, ?, ?)'),
      insertTag: db.prepare('INSERT INTO tags (note_id, tag, tag_key) VALUES (?, ?, ?)'),
      insertAlias: db.prepare('INSERT INTO aliases (note_id, alias) VALUES (?, ?)'),
      insertName: db.prepare('INSERT INTO note_names (note_id, name) VALUES (?, ?)'),
      // Positional: binding 17 named parameters from an object cost a third of a link's write time.
      insertLink: db.prepare(
        `INSERT INTO links (note_id, kind, embed, line, col, raw, target, subpath, display, link_key, context,
           resolved, status, candidates, via_alias, subpath_line, reason)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertFts: db.prepare(
        'INSERT INTO notes_fts (rowid, title, aliases, headings, body, title_stems, stems) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      insertWarning: db.prepare('INSERT INTO warnings (path, message, kind) VALUES (?, ?, ?)'),
      deleteFileWarning: db.prepare("DELETE FROM warnings WHERE path = ? AND kind = 'file'"),
      touchNote: db.prepare('UPDATE notes SET size = ?, mtime_ms = ? WHERE path = ?'),
      upsertAttachment: db.prepare(
        `INSERT INTO attachments (path, size, mtime_ms) VALUES (?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms`,
      ),
      deleteAttachment: db.prepare('DELETE FROM attachments WHERE path = ?'),
    };
  }

  /** Size, time and hash of every note, or only of `scope`'s paths and of the notes in its folders. */
  noteStates(scope?: StateScope): Map<string, FileState> {
    return this.states('SELECT path, size, mtime_ms, hash FROM notes', scope, (row) => ({
      size: row[1] as number,
      mtimeMs: row[2] as number,
      hash: row[3] as string,
    }));
  }

  attachmentStates(scope?: StateScope): Map<string, { size: number; mtimeMs: number }> {
    return this.states('SELECT path, size, mtime_ms FROM attachments', scope, (row) => ({
      size: row[1] as number,
      mtimeMs: row[2] as number,
    }));
  }

  /**
   * A batch of watcher events needs the states of its own paths only: loading all 10k notes' took a
   * tenth of the time between an edit and its index update. Rows as arrays, each state built by `state`:
   * objects with the path taken out by a rest pattern took 14–21 ms of a start's 10k.
   */
  private states<State>(
    select: string,
    scope: StateScope | undefined,
    state: (row: unknown[]) => State,
  ): Map<string, State> {
    const states = new Map<string, State>();
    const add = (rows: unknown[][]) => {
      for (const row of rows) states.set(row[0] as string, state(row));
    };
    if (!scope) add(this.db.prepare<[], unknown[]>(select).raw().all());
    else {
      add(
        this.db
          .prepare<[string], unknown[]>(`${select} WHERE path IN (SELECT value FROM json_each(?))`)
          .raw()
          .all(JSON.stringify(scope.paths)),
      );
      // Paths in a folder sort between `folder/` and `folder0` ('0' follows '/'): a range on the index.
      const inFolder = this.db
        .prepare<[string, string], unknown[]>(`${select} WHERE path >= ? AND path < ?`)
        .raw();
      for (const folder of scope.folders) add(inFolder.all(`${folder}/`, `${folder}0`));
    }
    return states;
  }

  /** Everything the link resolver needs about every note, in three queries. */
  resolverNotes(): ResolverNote[] {
    const notes = new Map<number, ResolverNote>();
    for (const { id, path } of this.db
      .prepare<[], { id: number; path: string }>('SELECT id, path FROM notes')
      .all())
      notes.set(id, { path, aliases: [], headings: [], blocks: [] });
    const aliases = this.db.prepare<[], { note_id: number; alias: string }>(
      'SELECT note_id, alias FROM aliases',
    );
    for (const row of aliases.iterate()) notes.get(row.note_id)?.aliases.push(row.alias);
    const headings = this.db.prepare<[], { note_id: number; level: number; text: string; line: number }>(
      'SELECT note_id, level, text, line FROM headings ORDER BY note_id, line',
    );
    for (const { note_id, ...heading } of headings.iterate()) notes.get(note_id)?.headings.push(heading);
    const blocks = this.db.prepare<[], { note_id: number; id: string; line: number }>(
      'SELECT note_id, block_id AS id, line FROM blocks ORDER BY note_id, line',
    );
    for (const { note_id, ...block } of blocks.iterate()) notes.get(note_id)?.blocks.push(block);
    return [...notes.values()];
  }

  /**
   * Replaces everything indexed for the note at `note.path`, its links resolved by `resolve`; each link
   * written is also handed to `written` with its row id (a cold index settles some of them at its end).
   * `isNew` skips looking for a previous version (a cold index). Call inside a transaction.
   */
  writeNote(
    note: ParsedNote,
    {
      resolve,
      isNew = false,
      written,
      profile,
    }: {
      resolve: (link: LinkOccurrence) => StoredResolution;
      isNew?: boolean;
      written?: (id: number, link: LinkOccurrence, resolution: StoredResolution) => void;
      profile?: PassProfile;
    },
  ): void {
    const started = profile ? performance.now() : 0;
    if (!isNew) this.deleteNote(note.path);
    const { facts } = note;
    const id = Number(
      this.statements.insertNote.run({
        path: note.path,
        title: facts.title,
        wordCount: facts.wordCount,
        size: note.size,
        mtimeMs: note.mtimeMs,
        hash: note.hash,
      }).lastInsertRowid,
    );
    const s = this.statements;
    if (facts.lead !== '') s.insertLead.run(id, facts.lead);
    for (const heading of facts.headings) s.insertHeading.run(id, heading.level, heading.text, heading.line);
    for (const block of facts.blocks) s.insertBlock.run(id, block.id, block.line);
    for (const tag of facts.tags) s.insertTag.run(id, tag, tag.toLowerCase());
    for (const alias of facts.aliases) s.insertAlias.run(id, alias);
    for (const name of note.names) s.insertName.run(id, name);
    for (const message of facts.warnings) s.insertWarning.run(note.path, message, 'note');
    const linksStarted = profile ? performance.now() : 0;
    linkOccurrences(facts).forEach((link, index) => {
      const pending = { noteId: id, source: note.path, link, context: note.linkContexts[index] ?? '' };
      const resolution = resolve(link);
      const linkId = this.insertLink(pending, resolution);
      written?.(linkId, link, resolution);
    });
    const ftsStarted = profile ? performance.now() : 0;
    s.insertFts.run(id, ...(note.searchColumns ?? searchColumns(facts, note.path)), ...note.stems);
    if (profile) {
      const ended = performance.now();
      profile.add('notes', linksStarted - started);
      profile.add('links', ftsStarted - linksStarted);
      profile.add('fts', ended - ftsStarted);
    }
  }

  /** Writes one link of a note already written; returns its row id. */
  private insertLink({ noteId, link, context }: PendingLink, to: StoredResolution): number {
    const { lastInsertRowid } = this.statements.insertLink.run(
      noteId,
      link.kind,
      link.embed ? 1 : 0,
      link.line,
      link.column,
      link.raw,
      link.target,
      link.subpath,
      link.display,
      keyHash(linkKey(link.target)),
      context,
      to.resolved,
      to.status,
      to.candidates,
      to.viaAlias,
      to.subpathLine,
      to.reason,
    );
    return Number(lastInsertRowid);
  }

  /** Removes a note and everything derived from it; returns whether it was indexed. */
  deleteNote(path: string): boolean {
    const s = this.statements;
    s.deleteNoteWarnings.run(path);
    const row = s.noteId.get(path);
    if (!row) return false;
    s.deleteFts.run(row.id);
    s.deleteNote.run(row.id);
    return true;
  }

  hasNote(path: string): boolean {
    return this.statements.noteId.get(path) !== undefined;
  }

  touchNote(path: string, size: number, mtimeMs: number): void {
    this.statements.touchNote.run(size, mtimeMs, path);
  }

  upsertAttachment(path: string, size: number, mtimeMs: number): void {
    this.statements.upsertAttachment.run(path, size, mtimeMs);
  }

  deleteAttachment(path: string): void {
    this.statements.deleteAttachment.run(path);
  }

  /** Warnings found while scanning (not parsing) replace the previous scan's. */
  replaceFileWarnings(warnings: IndexWarning[]): void {
    this.db.prepare("DELETE FROM warnings WHERE kind = 'file'").run();
    for (const { path, message } of warnings) this.statements.insertWarning.run(path, message, 'file');
  }

  addFileWarning(warning: IndexWarning): void {
    this.statements.deleteFileWarning.run(warning.path);
    this.statements.insertWarning.run(warning.path, warning.message, 'file');
  }

  clearFileWarning(path: string): void {
    this.statements.deleteFileWarning.run(path);
  }

  /** Drops the warnings about files that are gone: `paths`, and everything below `folders`. */
  clearFileWarnings(paths: readonly string[], folders: readonly string[]): void {
    const underFolder = this.db.prepare(
      "DELETE FROM warnings WHERE kind = 'file' AND substr(path, 1, length(?) + 1) = ? || '/'",
    );
    this.db.transaction(() => {
      for (const path of paths) this.statements.deleteFileWarning.run(path);
      for (const folder of folders) underFolder.run(folder, folder);
    })();
  }
}
