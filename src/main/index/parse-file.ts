import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { linkContexts, linkOccurrences } from '../../shared/markdown/note-links';
import { looksBinary } from '../vault/binary-sniff';
import { fastExtractNote } from './fast-extract';
import { unreadHash, type ParsedNote, type ParseOutcome, type ParseTask } from './parsed-note';

/** Bodies beyond this are indexed as metadata plus their first part, with a warning. */
export const maxParsedBytes = 2 * 1024 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/**
 * Reads, hashes and parses the notes of a task; runs in a worker thread or, in tests, inline. Reads are
 * synchronous: a worker has nothing else to do meanwhile, and promise-based open/stat/read/close cost
 * four thread-pool round trips per file (a tenth of the worker's time on a 10k-note vault).
 */
export function parseNotes(task: ParseTask): ParseOutcome[] {
  return task.paths.map((path) => parseNoteFile(task.root, path));
}

export function parseNoteFile(root: string, path: string): ParseOutcome {
  let bytes: Buffer;
  let size: number;
  let mtimeMs: number;
  try {
    const fd = openSync(join(root, ...path.split('/')), 'r');
    try {
      const info = fstatSync(fd);
      size = info.size;
      mtimeMs = info.mtimeMs;
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const vanished = code === 'ENOENT' || code === 'ENOTDIR';
    const denied = code === 'EACCES' || code === 'EPERM';
    if (denied) {
      const unreadable = unreadableNote(root, path);
      if (unreadable) return { ok: true, note: unreadable };
    }
    const reason = denied ? 'permission denied' : (error as Error).message;
    return { ok: false, path, vanished, message: `Cannot be read: ${reason}.` };
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
  return { ok: true, note: { path, size, mtimeMs, hash, facts, linkContexts: contexts } };
}

function decode(bytes: Buffer, truncated: boolean, warnings: string[]): string {
  try {
    return strictUtf8.decode(bytes, { stream: truncated });
  } catch {
    warnings.push('Contains bytes that are not valid UTF-8; they are indexed as "\uFFFD".');
    return lenientUtf8.decode(bytes);
  }
}

/**
 * A note that may not be read is still a note: it is indexed by name (links to it resolve), with a
 * warning, and with no hash, which makes every later pass try it again (see VaultIndex.refresh).
 */
function unreadableNote(root: string, path: string): ParsedNote | null {
  try {
    const info = statSync(join(root, ...path.split('/')));
    const facts = fastExtractNote('', basename(path));
    facts.warnings = ['Cannot be read: permission denied.'];
    return { path, size: info.size, mtimeMs: info.mtimeMs, hash: unreadHash, facts, linkContexts: [] };
  } catch {
    return null;
  }
}
