import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, readSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '../app-error';
import { heldElsewhere } from './held-elsewhere';
import type { VaultFolder } from './vault-folder';
import { temporaryName, writeTemporary } from './write-temporaries';

/** How many times a note saved by someone else meanwhile is written again before giving up. */
const maxRounds = 32;
/** Where no system tells who holds a file open: how long a displaced note is watched for a late save. */
const settleMs = 20;
/** How long Kasten waits, at most, for another process to let go of a displaced note. */
const maxHeldMs = 2000;
const readFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The sha-256 of a note's bytes, as the write checks compare them. */
export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What an exchange replaced and what it put in its place: an undo puts `previous` back. */
export interface ExchangedNote {
  /** The bytes the result was built from: the note as it was just before Kasten's change. */
  previous: Buffer;
  written: Buffer;
}

/**
 * Replaces the note `name` of `folder` with `build(its bytes)`, only if its bytes still hash to
 * `expectedHash` (else AppError `changed`), and without losing a save made by anyone meanwhile.
 *
 * The result is written and synced beside the note, the note read again (a save during the sync: built
 * anew, nothing shown), then the two exchanged in one step (renameat2 RENAME_EXCHANGE), so that the
 * temporary file holds exactly what the note held an instant before. If that is not what the result
 * was built from, an editor saved in between: it is exchanged back at once, and the result built
 * again from the note as it is now (`build` may throw: nothing is written then). What was displaced is
 * read again through its descriptor after it is unlinked: an editor holding it open from before the
 * exchange may have written into it, and that save is then built on, over what was put at the note.
 *
 * What remains: a write through a descriptor opened before an exchange that lands after the writer
 * let go of it (Linux) or `settleMs` after it (elsewhere) goes into a file no longer in the vault; and
 * a save made on top of a result in the instant before it is exchanged back (a few reads long) goes
 * with that result. No check by Kasten can see either.
 */
export async function exchangeNote(
  folder: VaultFolder,
  name: string,
  expectedHash: string,
  build: (basis: Buffer) => Buffer,
  changed: string,
): Promise<ExchangedNote> {
  const first = readNote(folder, name);
  if (hashOf(first.bytes) !== expectedHash) throw new AppError('invalid-input', changed);
  // `basis`: what the result is built from; `expected`: what the note must hold when exchanged.
  let basis = first.bytes;
  let expected = first.bytes;
  for (let round = 0; round < maxRounds; round++) {
    const result = build(basis);
    const temporary = await writeTemporary(folder, result, first.mode);
    try {
      // From this check to the end of the exchange nothing waits: an editor's save lands before or after.
      const now = readNote(folder, name).bytes;
      if (!now.equals(expected)) {
        basis = expected = now;
        continue;
      }
      folder.swapSync(temporary, name);
      const displaced = await takeDisplaced(folder, temporary, name, expected);
      if (displaced === 'kept') return { previous: basis, written: result };
      if (displaced === 'returned') {
        basis = expected = readNote(folder, name).bytes;
      } else {
        basis = displaced;
        expected = result;
      }
    } finally {
      await folder.unlink(temporary).catch(() => undefined);
    }
  }
  throw new AppError('invalid-input', `${changed} (It was saved again and again while Kasten wrote it.)`);
}

/**
 * Removes the note `name` of `folder` only if its bytes still hash to `expectedHash` (else AppError
 * `changed`), and without losing a save made by anyone meanwhile: the note is moved aside in one step
 * (a rename), read there, and only then unlinked; if what was moved aside is not what was expected, or
 * an editor holding it open writes into it after, it is put back. Should a new note have taken its
 * name meanwhile, it is put back beside it as `keptName` instead, and the error says so.
 */
export async function removeNote(
  folder: VaultFolder,
  name: string,
  expectedHash: string,
  changed: string,
  keptName: string,
): Promise<void> {
  if (hashOf(readNote(folder, name).bytes) !== expectedHash) throw new AppError('invalid-input', changed);
  const aside = temporaryName();
  folder.renameSync(name, aside);
  const fd = folder.openFileSync(aside, readFlags);
  try {
    if (hashOf(readAll(fd)) === expectedHash) {
      await letGo(fd);
      if (hashOf(readAll(fd)) === expectedHash) {
        await folder.unlink(aside);
        return;
      }
    }
  } finally {
    closeSync(fd);
  }
  const putAt = await folder.link(aside, name).then(
    () => name,
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
      await folder.link(aside, keptName);
      return keptName;
    },
  );
  await folder.unlink(aside);
  const kept = putAt === name ? '' : ` (A new note took its place meanwhile; it was kept as "${keptName}".)`;
  throw new AppError('invalid-input', `${changed}${kept}`);
}

/** The note's bytes and permissions, read through a descriptor that did not follow a link. */
function readNote(folder: VaultFolder, name: string): { bytes: Buffer; mode: number } {
  const fd = folder.openFileSync(name, readFlags);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new AppError('unsupported', `"${name}" is not a file.`);
    return { bytes: readAll(fd), mode: info.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

/**
 * After the exchange: `kept` when `temporary` holds `expected` (and is removed); `returned` when it
 * holds a save made meanwhile, exchanged back to the note untouched; or the bytes an editor wrote into
 * it through an old descriptor after it was removed, which the note now lacks. A link swapped in (the
 * note became one meanwhile) is exchanged back and refused: it is never read through.
 */
async function takeDisplaced(
  folder: VaultFolder,
  temporary: string,
  name: string,
  expected: Buffer,
): Promise<'kept' | 'returned' | Buffer> {
  let fd: number;
  try {
    fd = folder.openFileSync(temporary, readFlags);
  } catch (error) {
    folder.swapSync(temporary, name);
    throw error;
  }
  try {
    if (!readAll(fd).equals(expected)) {
      folder.swapSync(temporary, name);
      return 'returned';
    }
    folder.unlinkSync(temporary);
    await letGo(fd);
    const after = readAll(fd);
    return after.equals(expected) ? 'kept' : after;
  } finally {
    closeSync(fd);
  }
}

/**
 * Waits until no other process holds the displaced note (an editor that opened it before the exchange,
 * between its read and its write), so that its save is read and built on; where that cannot be told,
 * a moment.
 */
async function letGo(fd: number): Promise<void> {
  let held = heldElsewhere(fd);
  if (held === null) return delay(settleMs).then(() => undefined);
  for (let waited = 0; held && waited < maxHeldMs; waited += 5) {
    await delay(5);
    held = heldElsewhere(fd);
  }
}

/** Every byte the descriptor's file holds now, from its start. */
function readAll(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.alloc(64 * 1024);
    const bytesRead = readSync(fd, chunk, 0, chunk.length, position);
    if (bytesRead === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
}
