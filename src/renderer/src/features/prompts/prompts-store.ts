import { create } from 'zustand';
import type { PromptsView } from '../../../../shared/prompt-domain';
import { describeError, kasten } from '../../api';

interface PromptsState {
  view: PromptsView | null;
  error: string | null;
  load(): Promise<void>;
  /** Sets the open vault's prompts folder ('' for the default); resolves with whether it was saved. */
  configure(folder: string): Promise<boolean>;
}

/** The open vault's saved prompts, as main lists them; kept up to date once first asked for. */
export const usePromptsStore = create<PromptsState>((set) => ({
  view: null,
  error: null,
  async load() {
    follow();
    try {
      set({ view: await kasten.prompts.list(), error: null });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  async configure(folder) {
    follow();
    try {
      set({ view: await kasten.prompts.configure({ folder }), error: null });
      return true;
    } catch (error) {
      set({ error: describeError(error) });
      return false;
    }
  },
}));

let following = false;
/**
 * Prompts are notes: an edit in any editor reaches the index, and the list is asked for again (main
 * reads again only the prompts whose content changed). A pass's end and another vault do the same.
 */
function follow(): void {
  if (following) return;
  following = true;
  const reload = () => void usePromptsStore.getState().load();
  kasten.index.onChanged((change) => {
    const folder = usePromptsStore.getState().view?.folder ?? '';
    if (change.paths.some((path) => path.startsWith(`${folder}/`))) reload();
  });
  let indexing = false;
  kasten.index.onProgress((progress) => {
    if (indexing && progress.state !== 'indexing') reload();
    indexing = progress.state === 'indexing';
  });
  kasten.vault.onChanged((change) => {
    if (change.reason === 'opened') reload();
  });
}
