import { createHash, randomUUID } from 'node:crypto';
import { link, lstat, mkdir, open, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ProposedChange } from '../../shared/chat-domain';
import { AppError } from '../app-error';
import { placeAppend } from './append-placement';
import { looksBinary } from './binary-sniff';
import { vaultSegments } from './confined-file';
import { newNoteSegments, sameName } from './new-note-path';
import { isInside, isNotePath } from './vault-files';
import { readVaultFile } from './vault-paths';

/** A change checked and ready to show: nothing is written until `commit`. */
export interface PreparedWrite {
  readonly change: ProposedChange;
  /** Writes the change if the vault is still as it was when it was shown; throws an AppError if not. */
  commit(): Promise<void>;
}

/** Told the vault path of a note once it is written, so that the tree and the index follow at once. */
export type WrittenNote = (path: string) => Promise<void>;

const maxNoteBytes = 20 * 1024 * 1024;

/**
 * A new note at `vaultPath` (see newNoteSegments for what is refused). Existing folders are matched
 * without regard to case, as the vault's links are; a note whose name differs from an existing file's
 * only by case is refused on every system, since on macOS and Windows it is the same file.
 */
export async function prepareCreate(
  realRoot: string,
  vaultPath: string,
  content: string,
  written: WrittenNote,
): Promise<PreparedWrite> {
  const segments = newNoteSegments(vaultPath);
  const name = segments.pop()!;
  const located = await locateFolder(realRoot, segments, false);
  const path = [...located.segments, name].join('/');
  if (located.exists) await assertAbsent(located.dir, name, path);
  return {
    change: { kind: 'create', path, content },
    async commit() {
      const folder = await locateFolder(realRoot, segments, true);
      await assertAbsent(folder.dir, name, path);
      const target = join(folder.dir, name);
      const temporary = await writeTemporary(folder.dir, Buffer.from(content, 'utf8'), null);
      try {
        // A hard link never replaces what is there: a note created meanwhile makes it fail, not vanish.
        await link(temporary, target).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST') throw exists(path);
          // File systems without hard links (FAT, some network shares): exclusive create, no overwrite.
          const handle = await open(target, 'wx').catch((inner: NodeJS.ErrnoException) => {
            throw inner.code === 'EEXIST' ? exists(path) : inner;
          });
          try {
            await handle.writeFile(content, 'utf8');
            await handle.sync();
          } finally {
            await handle.close();
          }
        });
      } finally {
        await rm(temporary, { force: true });
      }
      await written(path);
    },
  };
}

/**
 * `content` added to the note at `vaultPath`, at its end or at the end of `heading`'s section (see
 * placeAppend); the commit replaces the note only if it is still as it was shown (replaceUnchanged).
 */
export async function prepareAppend(
  realRoot: string,
  vaultPath: string,
  content: string,
  heading: string | null,
  written: WrittenNote,
): Promise<PreparedWrite> {
  if (!isNotePath(vaultPath)) throw new AppError('invalid-input', `"${vaultPath}" is not a Markdown note.`);
  const { bytes } = await readVaultFile(realRoot, vaultPath, maxNoteBytes);
  if (looksBinary(bytes)) throw new AppError('unsupported', `"${vaultPath}" is a binary file, not Markdown.`);
  const shownHash = hashOf(bytes);
  let placed;
  try {
    placed = placeAppend(bytes, vaultPath, content, heading);
  } catch (error) {
    throw new AppError('invalid-input', (error as Error).message);
  }
  const { bytes: result, ...change } = placed;
  const changed = `"${vaultPath}" changed on disk after the change was shown, so nothing was written. Read it again and propose the change anew.`;
  return {
    change: { kind: 'append', path: vaultPath, ...change },
    commit: () => replaceUnchanged(realRoot, vaultPath, shownHash, result, changed, written),
  };
}

/**
 * `content` over the note at `vaultPath`, only if its bytes still hash to `expectedHash` (what Kasten
 * wrote there last): an exported chat updated on request, never over what the user changed in it.
 */
export async function replaceNote(
  realRoot: string,
  vaultPath: string,
  content: string,
  expectedHash: string,
  written: WrittenNote,
): Promise<void> {
  if (!isNotePath(vaultPath)) throw new AppError('invalid-input', `"${vaultPath}" is not a Markdown note.`);
  const changed = `"${vaultPath}" was edited since Kasten wrote it, so it was not replaced.`;
  await replaceUnchanged(realRoot, vaultPath, expectedHash, Buffer.from(content, 'utf8'), changed, written);
}

/** The sha-256 of a note's bytes, as the write checks compare them. */
export function noteHash(bytes: Buffer | string): string {
  return hashOf(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
}

/**
 * Writes `result` to a temporary file beside the note and renames it over the note, so no reader ever
 * sees half of it; and only if the note's bytes still hash to `expectedHash`: a note edited meanwhile
 * is refused (`changed`), never overwritten. (An edit saved in the instant between that check and the
 * rename would still be lost; the window is a read and a rename long.)
 */
async function replaceUnchanged(
  realRoot: string,
  vaultPath: string,
  expectedHash: string,
  result: Buffer,
  changed: string,
  written: WrittenNote,
): Promise<void> {
  const unchanged = async () => {
    const now = await readVaultFile(realRoot, vaultPath, maxNoteBytes);
    if (hashOf(now.bytes) !== expectedHash) throw new AppError('invalid-input', changed);
  };
  await unchanged();
  // A note that is a symlink to another file of the vault: that file is written, the link stays.
  const target = await realpath(join(realRoot, ...vaultSegments(vaultPath)));
  if (!isInside(realRoot, target))
    throw new AppError('outside-vault', `"${vaultPath}" is outside the vault.`);
  const mode = (await stat(target)).mode & 0o777;
  const temporary = await writeTemporary(dirname(target), result, mode);
  try {
    await unchanged();
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await written(vaultPath);
}

/**
 * The folder `segments` name inside the vault, each matched to an existing folder without regard to
 * case; with `create`, the missing ones are made. A symlink on the way is refused: one leading outside
 * would put the note outside, one to another vault folder would put it where the scan does not list it.
 */
async function locateFolder(
  realRoot: string,
  segments: readonly string[],
  create: boolean,
): Promise<{ dir: string; segments: string[]; exists: boolean }> {
  let dir = realRoot;
  const found: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const entry =
      entries.find((candidate) => candidate.name === segment) ??
      entries.find((candidate) => sameName(candidate.name, segment));
    const shown = [...found, entry?.name ?? segment].join('/');
    if (!entry) {
      if (!create) return { dir, segments: [...found, ...segments.slice(index)], exists: false };
      await mkdir(join(dir, segment)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    } else if (entry.isSymbolicLink()) {
      const real = await realpath(join(dir, entry.name)).catch(() => null);
      const where =
        real && isInside(realRoot, real) ? 'to another folder of the vault' : 'leading outside the vault';
      throw new AppError(
        'outside-vault',
        `"${shown}" is a symlink ${where}; notes are not created through it.`,
      );
    } else if (!entry.isDirectory()) {
      throw new AppError('invalid-input', `"${shown}" is a file, not a folder.`);
    }
    dir = join(dir, entry?.name ?? segment);
    found.push(entry?.name ?? segment);
    // What was just made or found must really be a folder of the vault (not swapped for a link since).
    const info = await lstat(dir);
    if (!info.isDirectory() || !isInside(realRoot, await realpath(dir))) {
      throw new AppError('outside-vault', `"${found.join('/')}" is not a folder inside the vault.`);
    }
  }
  return { dir, segments: found, exists: true };
}

async function assertAbsent(dir: string, name: string, path: string): Promise<void> {
  const existing = (await readdir(dir)).find((entry) => sameName(entry, name));
  if (existing !== undefined) throw exists(path, existing === name ? null : existing);
}

/** A note cannot be created where one is: callers looking for a free name try the next one. */
export class NoteExistsError extends AppError {}

function exists(path: string, spelled: string | null = null): AppError {
  const as = spelled === null ? '' : ` as "${spelled}" (on macOS and Windows that is the same name)`;
  return new NoteExistsError(
    'invalid-input',
    `"${path}" already exists${as}; create_note never overwrites a note. Use append_to_note to add to it, or choose another name.`,
  );
}

/**
 * The bytes in a new hidden file of `dir` (hidden: the watcher and the scan ignore dot files), synced,
 * with `mode` (the note it replaces keeps its permissions) or the default one.
 */
async function writeTemporary(dir: string, bytes: Buffer, mode: number | null): Promise<string> {
  const path = join(dir, `.kasten-write-${randomUUID()}.tmp`);
  const handle = await open(path, 'wx');
  try {
    if (mode !== null) await handle.chmod(mode);
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
  return path;
}

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
