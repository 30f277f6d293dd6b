import { realpath, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { AttachmentFile, NoteFile, VaultSummary, VaultTree } from '../../shared/domain';
import { AppError } from '../app-error';
import type { AppEvents } from '../app-events';
import { mimeTypeOf } from './attachment-types';
import { looksBinary } from './binary-sniff';
import type { EditTarget } from './edit-placement';
import { prepareEdit } from './note-edits';
import { restoreNote } from './note-restore';
import { prepareAppend, prepareCreate, replaceNote, type PreparedWrite } from './note-writes';
import type { RecentVaults } from './recent-vaults';
import { isIgnoredPath, isNotePath, scanVault, skipReasonOf, type VaultFiles } from './vault-files';
import { readVaultFile } from './vault-paths';
import { buildTree } from './vault-tree';
import { VaultWatcher, type FileEvent } from './vault-watcher';
import { removeLeftoverTemporaries } from './write-temporaries';

/** Asks the user for a folder (the desktop's native dialog); resolves null when cancelled. */
export type FolderPicker = () => Promise<string | null>;

/** What keeps a derived view of the vault (the index) in step with its files. */
export interface VaultListener {
  open(root: string, files: VaultFiles): Promise<unknown>;
  applyChanges(batch: FileEvent[]): Promise<void>;
  /** Looks again at `notes` once the watcher is ready: they may have changed before it could see. */
  catchUp(notes: string[]): Promise<void>;
  close(): Promise<void>;
}

export interface VaultServiceOptions {
  events: AppEvents;
  recent: RecentVaults;
  listener?: VaultListener;
  pickFolder?: FolderPicker;
  /** Watch the open vault for changes (off for one-shot CLI commands). */
  watch: boolean;
}

const maxNoteBytes = 20 * 1024 * 1024;
const maxAttachmentBytes = 25 * 1024 * 1024;
/** How often a vault whose folder went missing looks for it again. */
const returnPollMs = 2000;

interface OpenVault {
  root: string;
  /** The folder's real path: every read is checked to stay below it. */
  realRoot: string;
  name: string;
  notes: Set<string>;
  attachments: Set<string>;
  watcher: VaultWatcher | null;
  /** The folder disappeared (deleted, unplugged) while open. */
  missing: boolean;
  /** While missing: the timer that looks for the folder's return. */
  returnCheck: NodeJS.Timeout | null;
}

export type NoteSource = Omit<NoteFile, 'links'>;

/** The open vault: its files, live updates, and reading notes and attachments safely. */
export class VaultService {
  private vault: OpenVault | null = null;

  constructor(private readonly options: VaultServiceOptions) {}

  /** Opens `path`, or asks the user for a folder when none is given. Resolves null if they cancel. */
  open(path?: string): Promise<VaultSummary | null> {
    return this.openFolder(path, 'opened');
  }

  private async openFolder(path: string | undefined, reason: 'opened' | 'returned') {
    const chosen = path ?? (await this.pick());
    if (chosen === null) return null;
    const root = resolve(chosen);
    const info = await stat(root).catch(() => null);
    if (!info) throw new AppError('not-found', `There is no folder at ${root}.`);
    if (!info.isDirectory()) throw new AppError('not-a-folder', `${root} is a file, not a folder.`);

    const files = await scanVault(root);
    // What a write killed midway left behind; the scan found it in passing.
    await removeLeftoverTemporaries(files.leftovers);
    const realRoot = await realpath(root);
    await this.close();
    const vault: OpenVault = {
      root,
      realRoot,
      name: basename(root),
      notes: new Set(files.notes),
      attachments: new Set(files.attachments),
      watcher: null,
      missing: false,
      returnCheck: null,
    };
    this.vault = vault;
    this.options.listener?.open(root, files).catch((error: Error) => {
      if (error.name !== 'AbortError') console.error(`Indexing ${root} failed: ${error.message}`);
    });
    if (this.options.watch) {
      vault.watcher = new VaultWatcher({
        root,
        onBatch: (batch) => void this.apply(vault, batch),
        onError: (error) => console.error(`Watching ${root} failed: ${error.message}`),
      });
      await vault.watcher.start();
      // Files created or deleted while the watcher's crawl ran (a sync tool at work) are applied now.
      const { added, removed } = await vault.watcher.differencesFrom(
        new Set([...vault.notes, ...vault.attachments]),
      );
      const at = Date.now();
      const missed: FileEvent[] = [
        ...added.map((path) => ({ type: 'add' as const, path, at })),
        ...removed.map((path) => ({ type: 'unlink' as const, path, at })),
      ];
      if (missed.length > 0) void this.apply(vault, missed);
      // Notes edited after they were read and before the watcher reached their folder.
      this.options.listener?.catchUp([...vault.notes]).catch((error: Error) => {
        if (error.name !== 'AbortError') console.error(`Indexing ${root} failed: ${error.message}`);
      });
    }
    this.options.recent.remember(root, vault.name);
    const summary = this.summarize(vault);
    this.options.events.emit('vault:changed', { vault: summary, reason, paths: [], treeChanged: true });
    return summary;
  }

  summary(): VaultSummary | null {
    return this.vault && this.summarize(this.vault);
  }

  tree(): VaultTree {
    const vault = this.vault;
    if (!vault) return { vault: null, entries: [] };
    return { vault: this.summarize(vault), entries: buildTree([...vault.notes], [...vault.attachments]) };
  }

  async readNote(path: string): Promise<NoteSource> {
    if (!isNotePath(path)) throw new AppError('invalid-input', `"${path}" is not a Markdown note.`);
    const { bytes, size, modifiedAt } = await readVaultFile(this.require().realRoot, path, maxNoteBytes);
    if (looksBinary(bytes)) {
      throw new AppError('unsupported', `"${path}" is a binary file, not Markdown text: it cannot be shown.`);
    }
    const content = bytes.toString('utf8').replace(/^\uFEFF/, '');
    return { path, name: basename(path).replace(/\.md$/i, ''), content, size, modifiedAt };
  }

  async readAttachment(path: string): Promise<AttachmentFile> {
    const { bytes, size } = await readVaultFile(this.require().realRoot, path, maxAttachmentBytes);
    return { path, mimeType: mimeTypeOf(path), base64: bytes.toString('base64'), size };
  }

  /** A new note, checked (inside the vault, a valid name everywhere, not there yet); written on `commit`. */
  prepareCreate(path: string, content: string): Promise<PreparedWrite> {
    const vault = this.require();
    return prepareCreate(vault.realRoot, path, content, this.written(vault, 'add'));
  }

  /** Lines added to a note, placed but written only on `commit`, which refuses if the note changed. */
  prepareAppend(path: string, content: string, heading: string | null): Promise<PreparedWrite> {
    const vault = this.require();
    return prepareAppend(vault.realRoot, path, content, heading, this.written(vault, 'change'));
  }

  /** One passage or one section's text replaced, shown as a word diff; written only on `commit`. */
  prepareEdit(path: string, target: EditTarget, replacement: string): Promise<PreparedWrite> {
    const vault = this.require();
    return prepareEdit(vault.realRoot, path, target, replacement, this.written(vault, 'change'));
  }

  /** Replaces a note Kasten wrote, only if its bytes still hash to `expectedHash` (see replaceNote). */
  replaceNote(path: string, content: string, expectedHash: string) {
    const vault = this.require();
    return replaceNote(vault.realRoot, path, content, expectedHash, this.written(vault, 'change'));
  }

  /** Undoes a write Kasten made, while the file is as Kasten left it (see restoreNote). */
  restoreNote(realPath: string, previous: Buffer | null, writtenHash: string): Promise<void> {
    const vault = this.require();
    return restoreNote(vault.realRoot, realPath, previous, writtenHash, (path, type) =>
      this.written(vault, type)(path),
    );
  }

  async dispose(): Promise<void> {
    await this.close();
  }

  /** After Kasten wrote a note the tree and the index follow at once, watched or not. */
  private written(vault: OpenVault, type: 'add' | 'change' | 'unlink') {
    return (path: string) => this.apply(vault, [{ type, path, at: Date.now() }]);
  }

  private async pick(): Promise<string | null> {
    if (!this.options.pickFolder) {
      throw new AppError(
        'unsupported',
        'This host cannot show a folder picker; enter the folder path instead.',
      );
    }
    return this.options.pickFolder();
  }

  private require(): OpenVault {
    if (!this.vault) throw new AppError('no-vault', 'No vault is open.');
    return this.vault;
  }

  private async apply(vault: OpenVault, received: FileEvent[]): Promise<void> {
    if (this.vault !== vault) return;
    const missing = !(await stat(vault.root).catch(() => null))?.isDirectory();
    if (this.vault !== vault) return;
    if (missing !== vault.missing) {
      vault.missing = missing;
      if (missing) {
        // Keep the index as it is: the folder may come back (a drive plugged in again).
        this.options.events.emit('vault:changed', {
          vault: this.summarize(vault),
          reason: 'missing',
          paths: [],
          treeChanged: false,
        });
        this.awaitReturn(vault);
        return;
      }
    }
    if (missing) return;
    const batch = await this.confine(
      vault,
      received.filter(({ path }) => !isIgnoredPath(path)),
    );
    if (this.vault !== vault) return;
    let treeChanged = false;
    for (const { type, path } of batch) {
      const files = isNotePath(path) ? vault.notes : vault.attachments;
      if (type === 'add' && !files.has(path)) {
        files.add(path);
        treeChanged = true;
      } else if (type === 'unlink') treeChanged = files.delete(path) || treeChanged;
      else if (type === 'unlinkDir') {
        for (const set of [vault.notes, vault.attachments]) {
          for (const file of set)
            if (file.startsWith(`${path}/`)) treeChanged = set.delete(file) || treeChanged;
        }
      }
    }
    const paths = [
      ...new Set(batch.filter((event) => !event.type.endsWith('Dir')).map((event) => event.path)),
    ];
    const summary = this.summarize(vault);
    this.options.events.emit('vault:changed', { vault: summary, reason: 'files', paths, treeChanged });
    await this.options.listener?.applyChanges(batch).catch((error: Error) => {
      console.error(`Updating the index of ${vault.root} failed: ${error.message}`);
    });
  }

  /**
   * Files added or changed that are not part of the vault (a symlink created, or a note replaced by one,
   * leading outside; a name that is not UTF-8) become removals that say why: they leave the tree and the
   * index, and the health view lists them as the scan would have.
   */
  private async confine(vault: OpenVault, batch: FileEvent[]): Promise<FileEvent[]> {
    return Promise.all(
      batch.map(async (event) => {
        if (event.type !== 'add' && event.type !== 'change') return event;
        const skipped = await skipReasonOf(vault.realRoot, event.path);
        return skipped ? { ...event, type: 'unlink' as const, skipped } : event;
      }),
    );
  }

  /**
   * Looks for a missing vault's folder every few seconds. Once it is back, the vault is read again as on
   * opening (the files, the index brought up to date, a new watcher: the old one stopped with the folder).
   */
  private awaitReturn(vault: OpenVault): void {
    if (vault.returnCheck) return;
    const check = async () => {
      const back = (await stat(vault.root).catch(() => null))?.isDirectory() ?? false;
      if (!back || this.vault !== vault || vault.returnCheck === null) return;
      clearInterval(vault.returnCheck);
      vault.returnCheck = null;
      await this.openFolder(vault.root, 'returned').catch((error: Error) => {
        console.error(`Reading ${vault.root} again failed: ${error.message}`);
      });
    };
    vault.returnCheck = setInterval(() => void check(), returnPollMs);
    vault.returnCheck.unref();
  }

  private summarize(vault: OpenVault): VaultSummary {
    return {
      name: vault.name,
      path: vault.root,
      noteCount: vault.notes.size,
      attachmentCount: vault.attachments.size,
      missing: vault.missing,
    };
  }

  private async close(): Promise<void> {
    if (this.vault?.returnCheck) clearInterval(this.vault.returnCheck);
    const watcher = this.vault?.watcher;
    const wasOpen = this.vault !== null;
    this.vault = null;
    await watcher?.dispose();
    if (wasOpen) await this.options.listener?.close();
  }
}
