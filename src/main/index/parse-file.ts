import { createHash } from 'node:crypto';
import { closeSync, lstatSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { linkContexts, linkOccurrences } from '../../shared/markdown/note-links';
import { looksBinary } from '../vault/binary-sniff';
import { RefusedPath, type Refusal } from '../vault/confined-file';
import { ConfinedReads } from '../vault/confined-reads';
import { fromVaultPath, skipReasons } from '../vault/vault-files';
import { fastExtractNote } from './fast-extract';
import { nameKeys } from './exact-title';
import { noteStems, separatedSearchColumns } from './search-columns';
import {
  unreadHash,
  type ParsedBatch,
  type ParsedNote,
  type ParseOutcome,
  type ParseTask,
} from './parsed-note';

/** Bodies beyond this are indexed as metadata plus their first part, with a warning. */
export const maxParsedBytes = 2 * 1024 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/**
 * parseNotes on the main thread beside the workers, its result copied as a worker's arrives. What a parse
 * keeps of a note (headings, aliases, link contexts) are slices of its text, and V8 keeps the whole text
 * alive for any slice: the resolver and the links deferred to the end of a cold index held the full text
 * of every note parsed here (a 10k-note vault's heap, 3 s into its cold index: 2,000 notes' texts).
 */
export function parseNotesHere(task: ParseTask): ParsedBatch {
  return structuredClone(parseNotes(task));
}

/**
 * Reads, hashes and parses the notes of a task; runs in a worker thread or, in tests, inline. Reads are
 * synchronous: a worker has nothing else to do meanwhile, and promise-based open/stat/read/close cost
 * four thread-pool round trips per file (a tenth of the worker's time on a 10k-note vault).
 */
export function parseNotes(task: ParseTask): ParsedBatch {
  const started = performance.now();
  let realRoot: string;
  try {
    realRoot = realpathSync(task.root);
  } catch (error) {
    const message = `Cannot be read: ${(error as Error).message}.`;
    const outcomes = task.paths.map((path): ParseOutcome => ({
      ok: false,
      path,
      vanished: true,
      skipped: false,
      message,
    }));
    return { outcomes, readMs: performance.now() - started, parseMs: 0 };
  }
  const reads = new ConfinedReads(realRoot);
  const timing = { readMs: 0 };
  try {
    const outcomes = task.paths.map((path) => parseNoteFile(realRoot, path, reads, timing));
    const readMs = timing.readMs;
    return { outcomes, readMs, parseMs: performance.now() - started - readMs };
  } finally {
    reads.close();
  }
}

/** Reads and parses one note below `realRoot` (the vault folder's real path), confined to the vault. */
function parseNoteFile(
  realRoot: string,
  path: string,
  reads: ConfinedReads,
  timing: { readMs: number },
): ParseOutcome {
  const started = performance.now();
  let bytes: Buffer;
  let size: number;
  let mtimeMs: number;
  try {
    const { fd, stats } = reads.open(path);
    try {
      size = stats.size;
      mtimeMs = stats.mtimeMs;
      bytes = readOpened(fd, size);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return unreadOutcome(realRoot, path, error);
  } finally {
    timing.readMs += performance.now() - started;
  }
  const hash = createHash('sha1').update(bytes).digest('hex');
  const fileName = basename(path);
  const warnings: string[] = [];
  let source: string;
  if (looksBinary(bytes)) {
    warnings.push('Looks like a binary file, not Markdown: indexed by name only.');
    source = '';
  } else {
    const body = bytes.length > maxParsedBytes ? bytes.subarray(0, maxParsedBytes) : bytes;
    if (body !== bytes) {
      warnings.push(
        `Is ${(bytes.length / 1048576).toFixed(1)} MB: only the first ${maxParsedBytes / 1048576} MB are indexed.`,
      );
    }
    source = decode(body, body !== bytes, warnings);
  }
  const facts = fastExtractNote(source, fileName);
  facts.warnings = [...warnings, ...facts.warnings];
  const contexts = linkContexts(source, linkOccurrences(facts));
  const searchColumns = separatedSearchColumns(facts, path);
  const stems = noteStems(facts, path);
  const names = nameKeys(facts, path);
  return {
    ok: true,
    note: { path, size, mtimeMs, hash, facts, linkContexts: contexts, searchColumns, stems, names },
  };
}

/**
 * The `size` bytes of an opened file (fewer if it shrank), as readFileSync reads them but without the
 * second fstat it makes; a file that says it is empty (some special files do) is read to its end.
 */
function readOpened(fd: number, size: number): Buffer {
  if (size === 0) return readFileSync(fd);
  const bytes = Buffer.allocUnsafe(size);
  let read = 0;
  while (read < size) {
    const count = readSync(fd, bytes, read, size - read, null);
    if (count === 0) break;
    read += count;
  }
  return read === size ? bytes : bytes.subarray(0, read);
}

function decode(bytes: Buffer, truncated: boolean, warnings: string[]): string {
  try {
    return strictUtf8.decode(bytes, { stream: truncated });
  } catch {
    warnings.push('Contains bytes that are not valid UTF-8; they are indexed as "\uFFFD".');
    return lenientUtf8.decode(bytes);
  }
}

/** Why a note was not read: gone, left out (a symlink leaving the vault), or unreadable. */
function unreadOutcome(realRoot: string, path: string, error: unknown): ParseOutcome {
  const refusal: Refusal =
    error instanceof RefusedPath ? error.refusal : { kind: 'failed', message: (error as Error).message };
  if (refusal.kind === 'outside' || refusal.kind === 'ignored') {
    const reason = skipReasons[refusal.kind];
    return { ok: false, path, vanished: false, skipped: true, message: `Skipped: ${reason}.` };
  }
  if (refusal.kind === 'not-found') {
    // A dangling symlink is a file the user sees in the folder: say why it is not a note.
    const link = lstatOrNull(realRoot, path);
    if (link?.isSymbolicLink()) {
      return {
        ok: false,
        path,
        vanished: false,
        skipped: true,
        message: `Skipped: ${skipReasons.dangling}.`,
      };
    }
    return { ok: false, path, vanished: true, skipped: false, message: 'Cannot be read: it is gone.' };
  }
  if (refusal.kind === 'denied') {
    const unreadable = unreadableNote(realRoot, path);
    if (unreadable) return { ok: true, note: unreadable };
  }
  if (refusal.kind === 'not-a-file') {
    return { ok: false, path, vanished: false, skipped: true, message: 'Skipped: is not a regular file.' };
  }
  const reason = refusal.kind === 'denied' ? 'permission denied' : refusal.message;
  return { ok: false, path, vanished: false, skipped: false, message: `Cannot be read: ${reason}.` };
}

function lstatOrNull(realRoot: string, path: string) {
  try {
    return lstatSync(fromVaultPath(realRoot, path));
  } catch {
    return null;
  }
}

/**
 * A note that may not be read is still a note: it is indexed by name (links to it resolve), with a
 * warning, and with no hash, which makes every later pass try it again (see VaultIndex.refresh).
 * Its size and time come from the entry itself: a symlink is not followed to learn them.
 */
function unreadableNote(realRoot: string, path: string): ParsedNote | null {
  const info = lstatOrNull(realRoot, path);
  if (!info?.isFile()) return null;
  const facts = fastExtractNote('', basename(path));
  facts.warnings = ['Cannot be read: permission denied.'];
  const searchColumns = separatedSearchColumns(facts, path);
  return {
    path,
    size: info.size,
    mtimeMs: info.mtimeMs,
    hash: unreadHash,
    facts,
    linkContexts: [],
    searchColumns,
    stems: ['', ''],
    names: nameKeys(facts, path),
  };
}
