import type { NoteFacts } from '../../shared/markdown/note-facts';
import type { SearchColumns } from './search-columns';
import type { StemColumns } from './search-stems';

/** The hash of a note that could not be read (permission denied): no file's SHA-1 is empty. */
export const unreadHash = '';

/** One note as the parser saw it on disk. */
export interface ParsedNote {
  path: string;
  size: number;
  mtimeMs: number;
  /** SHA-1 of the file's bytes: tells edits from touches, and finds renames; unreadHash if unread. */
  hash: string;
  facts: NoteFacts;
  /** The source line of each wikilink then each Markdown link, trimmed: shown with backlinks. */
  linkContexts: string[];
  /**
   * The FTS columns when segmenting changed them (Chinese, Thai…: see word-segments), done in the parse
   * worker; null when the facts' text is indexed as it is.
   */
  searchColumns: SearchColumns | null;
  /** The stems of its words in its language, for the stem columns (see search-stems). */
  stems: StemColumns;
  /** The names search finds it first by (see exact-title). */
  names: string[];
}

/**
 * What parsing one file produced: a note, or why there is none — vanished, skipped (it is not a note of
 * the vault: a symlink leading outside, a FIFO) or unreadable (the note stays as it was indexed).
 */
export type ParseOutcome =
  | { ok: true; note: ParsedNote }
  | { ok: false; path: string; vanished: boolean; skipped: boolean; message: string };

/** What a worker made of a task: an outcome for each path, and the time spent reading and parsing. */
export interface ParsedBatch {
  outcomes: ParseOutcome[];
  readMs: number;
  parseMs: number;
}

/** A batch of notes for a worker to read and parse. */
export interface ParseTask {
  root: string;
  paths: string[];
}
