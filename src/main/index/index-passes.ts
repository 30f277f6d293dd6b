import type { IndexProgress } from '../../shared/index-domain';
import { fileKeys } from '../../shared/links/link-resolver';
import type { VaultFiles } from '../vault/vault-files';
import { isNotePath } from '../vault/vault-files';
import type { FileEvent } from '../vault/vault-watcher';
import { changedOnDisk, statAll, type FileStat } from './file-stats';
import { notesToLimitHeap, withHeapGrowthLimited } from './heap-growth';
import { IndexUpdate } from './index-update';
import type { IndexWorkers } from './index-workers';
import type { OpenIndex } from './open-index';
import { unreadHash } from './parsed-note';
import type { PassProfile } from './pass-profile';
import type { FileSighting } from './rename-detector';
import { summarizeBatch } from './watch-batch';

/** What a pass needs besides the index: the parsers, and where its progress goes. */
export interface PassOptions {
  workers: IndexWorkers;
  onProgress: (progress: IndexProgress) => void;
  /** Where the pass's time goes, when it is measured. */
  profile?: PassProfile;
}

export interface BatchOutcome {
  changedPaths: string[];
  /** Notes removed and notes new, with their hashes, to find renames. */
  removedNotes: FileSighting[];
  addedNotes: FileSighting[];
  /** When the watcher saw the batch's first event (`Date.now()`). */
  firstEventAt: number;
}

/**
 * Brings the index up to date with the vault's `files`, re-parsing only notes whose size or time differ
 * from the index's; an empty index is filled by a full pass. Resolves with how many notes were parsed, and
 * the paths that changed (a full pass does not collect them).
 */
export async function refreshIndex(
  index: OpenIndex,
  files: VaultFiles,
  options: PassOptions,
): Promise<{ parsed: number; changedPaths: string[] }> {
  const { store } = index;
  const known = store.noteStates();
  const knownAttachments = store.attachmentStates();
  const update = newUpdate(index, known.size === 0, options);
  store.replaceFileWarnings(
    files.skipped.map(({ path, reason }) => ({ path, message: `Skipped: ${reason}.` })),
  );

  // An empty index parses every note: nothing to compare sizes and times with.
  const noteStats = known.size === 0 ? new Map<string, FileStat>() : await statAll(index.root, files.notes);
  const present = new Set(files.notes);
  update.deleteNotes([...known.keys()].filter((path) => !present.has(path)));
  const toParse = files.notes.filter((path) => {
    const before = known.get(path);
    // A note that could not be read is tried again: its permissions may have changed, not its time.
    return changedOnDisk(before, noteStats.get(path)) || before?.hash === unreadHash;
  });

  const attachmentStats = await statAll(index.root, files.attachments);
  const presentAttachments = new Set(files.attachments);
  update.deleteAttachments([...knownAttachments.keys()].filter((path) => !presentAttachments.has(path)));
  update.upsertAttachments(
    [...attachmentStats].filter(([path, now]) => changedOnDisk(knownAttachments.get(path), now)),
  );

  if (known.size === 0) update.startFullPass(toParse);
  const parse = async () => {
    const parsed = await update.parseNotes(toParse, known);
    await update.finish();
    return parsed;
  };
  // A large full pass holds the most garbage at once: its heap may grow a fifth past what it keeps alive.
  const large = known.size === 0 && toParse.length >= notesToLimitHeap;
  const parsed = large ? await withHeapGrowthLimited(parse) : await parse();
  return { parsed, changedPaths: [...update.changedPaths] };
}

/** Applies a batch of watcher events to the index. */
export async function applyBatch(
  index: OpenIndex,
  batch: FileEvent[],
  options: PassOptions,
): Promise<BatchOutcome> {
  const { scope, removed, changed, firstEventAt } = summarizeBatch(batch);
  const known = index.store.noteStates(scope);
  const knownAttachments = index.store.attachmentStates(scope);
  const update = newUpdate(index, false, options);
  const removedNotes = [...known.keys()].filter(removed);
  update.deleteNotes(removedNotes);
  // A file left out with a warning (a symlink leading outside) and deleted since: no more warning.
  index.store.clearFileWarnings(scope.paths.filter(removed), scope.folders);
  for (const [path, reason] of skippedIn(batch))
    index.store.addFileWarning({ path, message: `Skipped: ${reason}.` });
  update.deleteAttachments([...knownAttachments.keys()].filter(removed));

  const attachmentStats = await statAll(
    index.root,
    changed.filter((path) => !isNotePath(path)),
  );
  update.upsertAttachments([...attachmentStats]);
  await update.parseNotes(
    changed.filter((path) => isNotePath(path)),
    known,
  );
  await update.finish();
  return {
    changedPaths: [...update.changedPaths],
    removedNotes: removedNotes.map((path) => ({ path, hash: known.get(path)?.hash ?? '' })),
    addedNotes: [...update.parsedHashes]
      .filter(([path]) => !known.has(path))
      .map(([path, hash]) => ({ path, hash })),
    firstEventAt,
  };
}

/**
 * Those of `paths` whose size or time on disk differ from the index's, as change events: notes edited
 * after a pass read them and before the watcher reached them.
 */
export async function missedEdits(index: OpenIndex, paths: string[]): Promise<FileEvent[]> {
  const known = index.store.noteStates();
  const onDisk = await statAll(index.root, paths);
  const at = Date.now();
  const changed: FileEvent[] = [];
  for (const [path, now] of onDisk) {
    const before = known.get(path);
    if (before && changedOnDisk(before, now)) changed.push({ type: 'change', path, at });
  }
  return changed;
}

function newUpdate(index: OpenIndex, full: boolean, options: PassOptions): IndexUpdate {
  return new IndexUpdate({
    root: index.root,
    store: index.store,
    resolutions: index.resolutions,
    names: index.names,
    workers: options.workers,
    signal: index.controller.signal,
    full,
    fileKeys,
    onProgress: options.onProgress,
    profile: options.profile,
  });
}

/** The files a batch's last word about is that the vault left them out, with why. */
function skippedIn(batch: FileEvent[]): Map<string, string> {
  const last = new Map<string, string | undefined>();
  for (const event of batch) if (!event.type.endsWith('Dir')) last.set(event.path, event.skipped);
  return new Map([...last].filter((entry): entry is [string, string] => entry[1] !== undefined));
}
