import { constants } from 'node:fs';
import type { ProposedChange } from '../../shared/chat-domain';
import { AppError } from '../app-error';
import { placeAppend } from './append-placement';
import { looksBinary } from './binary-sniff';
import { confinedFailure, locateFolder, realNotePath, withVaultRoot } from './folder-walk';
import { newNoteSegments, sameName } from './new-note-path';
import { exchangeNote, hashOf, type ExchangedNote } from './note-exchange';
import type { VaultFolder } from './vault-folder';
import { isNotePath } from './vault-files';
import { readVaultFile } from './vault-paths';
import { writeTemporary } from './write-temporaries';

/** A change checked and ready to show: nothing is written until `commit`. */
export interface PreparedWrite {
  readonly change: ProposedChange;
  /** Writes the change if the vault is still as it was when it was shown; throws an AppError if not. */
  commit(): Promise<CommittedWrite>;
}

/** What a commit wrote, so that it can be undone: the file and its bytes before and after. */
export interface CommittedWrite {
  /** The vault path of the file written (the note a link leads to, when the note is a link). */
  path: string;
  /** What the file held just before; null: there was no file. */
  previous: Buffer | null;
  written: Buffer;
}

/** Told the vault path of a note once it is written, so that the tree and the index follow at once. */
export type WrittenNote = (path: string) => Promise<void>;

const maxNoteBytes = 20 * 1024 * 1024;
const exclusiveWrite = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/**
 * A new note at `vaultPath` (see newNoteSegments for what is refused). Existing folders are matched
 * without regard to case, as the vault's links are; a note whose name differs from an existing file's
 * only by case is refused on every system, since on macOS and Windows it is the same file. The commit
 * writes through the folders it opened one by one (see vault-folder.ts), never through a path.
 */
export async function prepareCreate(
  realRoot: string,
  vaultPath: string,
  content: string,
  written: WrittenNote,
): Promise<PreparedWrite> {
  const segments = newNoteSegments(vaultPath);
  refuseNul(content);
  const name = segments.pop()!;
  const path = await withVaultRoot(realRoot, async (root) => {
    const located = await locateFolder(root, segments, false);
    const path = [...located.segments, name].join('/');
    if (located.exists) await assertAbsent(located.folder, name, path);
    return path;
  });
  return {
    change: { kind: 'create', path, content },
    async commit() {
      const bytes = Buffer.from(content, 'utf8');
      await withVaultRoot(realRoot, async (root) => {
        const { folder } = await locateFolder(root, segments, true);
        await assertAbsent(folder, name, path);
        await createExclusive(folder, name, path, bytes);
      }).catch((error: unknown) => {
        throw confinedFailure(error, path);
      });
      await written(path);
      return { path, previous: null, written: bytes };
    },
  };
}

/**
 * `content` added to the note at `vaultPath`, at its end or at the end of `heading`'s section (see
 * placeAppend). A note that is a symlink to another file of the vault: that file is written (and named
 * in the change), the link stays. The commit re-applies the lines over any save made meanwhile
 * (exchangeNote), and refuses if the note changed between being shown and the approval.
 */
export async function prepareAppend(
  realRoot: string,
  vaultPath: string,
  content: string,
  heading: string | null,
  written: WrittenNote,
): Promise<PreparedWrite> {
  refuseNul(content);
  const note = await readExisting(realRoot, vaultPath);
  const place = (basis: Buffer) => placeAppend(basis, vaultPath, content, heading);
  let placed;
  try {
    placed = place(note.bytes);
  } catch (error) {
    throw new AppError('invalid-input', (error as Error).message);
  }
  const { bytes: _result, ...change } = placed;
  return preparedChange(
    { realRoot, vaultPath, written },
    note,
    { kind: 'append', path: vaultPath, ...change },
    (basis) => place(basis).bytes,
  );
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
): Promise<CommittedWrite> {
  if (!isNotePath(vaultPath)) throw new AppError('invalid-input', `"${vaultPath}" is not a Markdown note.`);
  const changed = `"${vaultPath}" was edited since Kasten wrote it, so it was not replaced.`;
  const realPath = await realNotePath(realRoot, vaultPath);
  const result = Buffer.from(content, 'utf8');
  // An edit saved while it is replaced is put back, and the replacement refused.
  const build = (basis: Buffer) => {
    if (hashOf(basis) !== expectedHash) throw new AppError('invalid-input', changed);
    return result;
  };
  const exchanged = await replaceConfined(realRoot, realPath, expectedHash, build, changed);
  await written(vaultPath);
  return { path: realPath, ...exchanged };
}

/** An existing note to change: the file it is (a link's target, as a vault path) and its bytes. */
export interface ExistingNote {
  realPath: string;
  bytes: Buffer;
}

/** Reads the Markdown note at `vaultPath` to change it; a binary file or a link leading out is refused. */
export async function readExisting(realRoot: string, vaultPath: string): Promise<ExistingNote> {
  if (!isNotePath(vaultPath)) throw new AppError('invalid-input', `"${vaultPath}" is not a Markdown note.`);
  const realPath = await realNotePath(realRoot, vaultPath);
  const { bytes } = await readVaultFile(realRoot, realPath, maxNoteBytes);
  if (looksBinary(bytes)) throw new AppError('unsupported', `"${vaultPath}" is a binary file, not Markdown.`);
  return { realPath, bytes };
}

/**
 * A change to an existing note, shown as `change` (naming the link's target when the note is a link);
 * the commit writes `build(its bytes)` over any save made meanwhile (exchangeNote), and refuses if the
 * note changed between being read and the approval, or when `build` throws.
 */
export function preparedChange(
  { realRoot, vaultPath, written }: { realRoot: string; vaultPath: string; written: WrittenNote },
  note: ExistingNote,
  change: Extract<ProposedChange, { kind: 'append' | 'edit' }>,
  build: (basis: Buffer) => Buffer,
): PreparedWrite {
  const { realPath, bytes } = note;
  const changed = `"${vaultPath}" changed on disk after the change was shown, so nothing was written. Read it again and propose the change anew.`;
  return {
    change: realPath === vaultPath ? change : { ...change, realPath },
    async commit() {
      // A save that moved the place of the change away is refused as a change would be.
      const rebuild = (basis: Buffer) => {
        try {
          return build(basis);
        } catch {
          throw new AppError('invalid-input', changed);
        }
      };
      const exchanged = await replaceConfined(realRoot, realPath, hashOf(bytes), rebuild, changed);
      await written(vaultPath);
      return { path: realPath, ...exchanged };
    },
  };
}

/** The sha-256 of a note's bytes, as the write checks compare them. */
export function noteHash(bytes: Buffer | string): string {
  return hashOf(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
}

/** exchangeNote on the real note at `realPath`, reached folder by folder from the vault's root. */
export async function replaceConfined(
  realRoot: string,
  realPath: string,
  expectedHash: string,
  build: (basis: Buffer) => Buffer,
  changed: string,
): Promise<ExchangedNote> {
  const segments = realPath.split('/');
  const name = segments.pop()!;
  return withVaultRoot(realRoot, async (root) => {
    const located = await locateFolder(root, segments, false);
    if (!located.exists) throw new AppError('not-found', `"${realPath}" does not exist in the vault.`);
    return exchangeNote(located.folder, name, expectedHash, build, changed);
  }).catch((error: unknown) => {
    throw confinedFailure(error, realPath);
  });
}

/**
 * The bytes as the new file `name`, written beside it first and then hard-linked in: a link never
 * replaces what is there, so a note created meanwhile makes it fail, not vanish.
 */
async function createExclusive(folder: VaultFolder, name: string, path: string, bytes: Buffer) {
  const temporary = await writeTemporary(folder, bytes, null);
  try {
    await folder.link(temporary, name).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw exists(path);
      if (error.code === 'ELOOP' || error.code === 'ENOTDIR') throw error;
      // File systems without hard links (FAT, some network shares): exclusive create, no overwrite.
      const handle = await folder.openFile(name, exclusiveWrite).catch((inner: NodeJS.ErrnoException) => {
        throw inner.code === 'EEXIST' ? exists(path) : inner;
      });
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  } finally {
    await folder.unlink(temporary).catch(() => undefined);
  }
}

/** A NUL makes a note a binary file to every tool (Kasten's search included), so none is written. */
export function refuseNul(content: string): void {
  if (content.includes('\u0000')) {
    throw new AppError(
      'invalid-input',
      'The content contains a NUL character, which makes a note a binary file that search and editors skip; nothing was written.',
    );
  }
}

async function assertAbsent(folder: VaultFolder, name: string, path: string): Promise<void> {
  const existing = (await folder.entries()).find((entry) => sameName(entry.name, name))?.name;
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
