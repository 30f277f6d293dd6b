import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { VaultFolder } from './vault-folder';

// Hidden (the watcher and the scan ignore dot files) and named after the writer, so that the next
// start can tell the leftovers of a writer that was killed from the files of one still at work.
// Names without a pid come from versions before it was added.
const temporary = /^\.kasten-write-(?:(\d+)-)?[0-9a-f-]{36}\.tmp$/;

/** Whether `name` is a temporary file left by a Kasten process that is no longer running. */
export function isLeftoverTemporary(name: string): boolean {
  const match = temporary.exec(name);
  return match !== null && (match[1] === undefined || !isRunning(Number(match[1])));
}

/** Removes the temporaries the scan found; ones already gone are fine. */
export async function removeLeftoverTemporaries(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => undefined)));
}

/**
 * The bytes in a new temporary file of `folder`, synced, with `mode` (the note it replaces keeps its
 * permissions) or the default one. Returns its name; the caller renames, links or removes it.
 */
export async function writeTemporary(
  folder: VaultFolder,
  bytes: Buffer,
  mode: number | null,
): Promise<string> {
  const name = temporaryName();
  const handle = await folder.openFile(name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    if (mode !== null) await handle.chmod(mode);
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await folder.unlink(name).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return name;
}

/** A fresh name for a temporary file of this process: hidden, and known as Kasten's by the next start. */
export function temporaryName(): string {
  return `.kasten-write-${process.pid}-${randomUUID()}.tmp`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
