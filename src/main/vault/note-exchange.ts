import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { AppError } from '../app-error';
import type { VaultFolder } from './vault-folder';
import { writeTemporary } from './write-temporaries';

/** How many times a note saved by someone else meanwhile is written again before giving up. */
const maxRounds = 32;
const readFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The sha-256 of a note's bytes, as the write checks compare them. */
export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Replaces the note `name` of `folder` with `build(its bytes)`, only if its bytes still hash to
 * `expectedHash` (else AppError `changed`), and without losing a save made by anyone meanwhile.
 *
 * The new bytes are written beside the note and exchanged with it in one step (renameat2
 * RENAME_EXCHANGE), so the temporary file then holds exactly what the note held an instant before.
 * If that is not what the result was built from, an editor saved in between: the result is built
 * again from those bytes (`build` may throw: then they are put back and the error thrown) and
 * exchanged again, now expecting to displace what was put there. A displaced file is read through a
 * descriptor after it is unlinked, until two reads agree: an editor holding it open from before the
 * exchange may still write into it, and what it wrote counts as a newer save.
 *
 * One window remains: a write through a descriptor opened before an exchange that lands after the
 * last read of the displaced file goes into a file no longer in the vault. No check by Kasten can see
 * it; an editor that writes through a fresh open (or renames its own file in) is never lost.
 */
export async function exchangeNote(
  folder: VaultFolder,
  name: string,
  expectedHash: string,
  build: (basis: Buffer) => Buffer,
  changed: string,
): Promise<void> {
  const current = await readNote(folder, name);
  if (hashOf(current.bytes) !== expectedHash) throw new AppError('invalid-input', changed);
  let basis = current.bytes;
  let expected = current.bytes;
  let refusal: unknown = null;
  for (let round = 0; round < maxRounds; round++) {
    let result = basis;
    if (refusal === null) {
      try {
        result = build(basis);
      } catch (error) {
        refusal = error;
      }
    }
    const temporary = await writeTemporary(folder, result, current.mode);
    try {
      await folder.swap(temporary, name);
    } catch (error) {
      await folder.unlink(temporary).catch(() => undefined);
      throw error;
    }
    const displaced = await takeDisplaced(folder, temporary, name);
    if (displaced.equals(expected)) {
      if (refusal !== null) throw refusal;
      return;
    }
    basis = displaced;
    expected = result;
  }
  throw new AppError('invalid-input', `${changed} (It was saved again and again while Kasten wrote it.)`);
}

/** The note's bytes and permissions, read through a descriptor that did not follow a link. */
async function readNote(folder: VaultFolder, name: string): Promise<{ bytes: Buffer; mode: number }> {
  const handle = await folder.openFile(name, readFlags);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new AppError('unsupported', `"${name}" is not a file.`);
    return { bytes: await readAll(handle), mode: info.mode & 0o777 };
  } finally {
    await handle.close();
  }
}

/**
 * What the exchange moved to `temporary`, which is removed. A link swapped in there (the note became
 * one meanwhile) is exchanged back and refused: it is never read through.
 */
async function takeDisplaced(folder: VaultFolder, temporary: string, name: string): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await folder.openFile(temporary, readFlags);
  } catch (error) {
    await folder.swap(temporary, name);
    await folder.unlink(temporary).catch(() => undefined);
    throw error;
  }
  try {
    await folder.unlink(temporary);
    let bytes = await readAll(handle);
    for (let read = 0; read < maxRounds; read++) {
      const again = await readAll(handle);
      if (again.equals(bytes)) break;
      bytes = again;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/** Every byte the descriptor's file holds now, from its start. */
async function readAll(handle: FileHandle): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
}
