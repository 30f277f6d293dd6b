import { create } from 'zustand';
import type { IndexProgress } from '../../../../shared/index-domain';
import { kasten } from '../../api';
import { useHealthStore } from '../health/health-store';
import { useSearchStore } from '../search/search-store';

interface IndexState {
  progress: IndexProgress | null;
  /** Counts the index's changes (a pass ended, the watcher's changes landed): what was read from it is stale. */
  epoch: number;
  cancel(): Promise<void>;
}

/** Indexing progress, mirrored from the main process. */
export const useIndexStore = create<IndexState>(() => ({
  progress: null,
  epoch: 0,
  async cancel() {
    await kasten.index.cancel();
  },
}));

let subscribed = false;
/**
 * Keeps what depends on the index fresh: progress, vault health and the open search re-run when a pass
 * finishes or the watcher's changes land.
 */
export function startIndexSync(): void {
  if (subscribed) return;
  subscribed = true;
  const refresh = () => {
    useIndexStore.setState(({ epoch }) => ({ epoch: epoch + 1 }));
    void useHealthStore.getState().load();
    useSearchStore.getState().refresh();
  };
  // A progress event is newer than any status answer still on its way: that answer must not undo it.
  let heard = false;
  kasten.index.onProgress((progress) => {
    heard = true;
    useIndexStore.setState({ progress });
    if (progress.state !== 'indexing') refresh();
  });
  kasten.index.onChanged(refresh);
  kasten.vault.onChanged((change) => {
    if (change.reason !== 'opened') return;
    useSearchStore.getState().clear();
    useHealthStore.getState().reset();
    refresh();
  });
  kasten.index.status().then(
    ({ progress }) => {
      if (!heard) useIndexStore.setState({ progress });
    },
    () => {},
  );
  refresh();
}
