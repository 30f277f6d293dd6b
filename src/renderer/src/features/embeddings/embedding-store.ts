import { create } from 'zustand';
import type {
  EmbeddingProgress,
  EmbeddingSettings,
  EmbeddingStatus,
} from '../../../../shared/embedding-domain';
import { isKastenError } from '../../../../shared/kasten-api';
import { describeError, kasten } from '../../api';

/** A save waiting for the user to confirm that an environment variable's key may go to a new server. */
export interface EmbeddingKeyConfirmation {
  settings: EmbeddingSettings;
  /** The main process's question, naming the variable and the server. */
  message: string;
}

interface EmbeddingState {
  /** Settings, counts and why semantic search is off, as last read. */
  status: EmbeddingStatus | null;
  /** Where the running (or last) embedding run stands: pushed events win over older status answers. */
  progress: EmbeddingProgress | null;
  /** Counts finished runs: notes found similar before one are stale after it. */
  revision: number;
  error: string | null;
  keyConfirmation: EmbeddingKeyConfirmation | null;
  load(): Promise<void>;
  /** `confirmKey`: the user confirmed sending the named variable's key to this server. */
  configure(settings: EmbeddingSettings, confirmKey?: boolean): Promise<boolean>;
  run(): Promise<void>;
  cancel(): Promise<void>;
  dismissKeyConfirmation(): void;
}

const progressOf = ({ state, phase, done, total, error }: EmbeddingProgress): EmbeddingProgress => ({
  state,
  phase,
  done,
  total,
  error,
});

/** Counts progress events, so a status answer asked for before the latest one does not undo it. */
let eventsHeard = 0;

/** The embedding model's settings and the vault's vectors, mirrored from the main process. */
export const useEmbeddingStore = create<EmbeddingState>((set, get) => {
  const apply = (status: EmbeddingStatus, heardBefore: number) =>
    set(heardBefore === eventsHeard ? { status, progress: progressOf(status) } : { status });
  return {
    status: null,
    progress: null,
    revision: 0,
    error: null,
    keyConfirmation: null,
    async load() {
      const heardBefore = eventsHeard;
      try {
        apply(await kasten.embeddings.status(), heardBefore);
      } catch (error) {
        set({ error: describeError(error) });
      }
    },
    async configure(settings, confirmKey = false) {
      set({ keyConfirmation: null });
      const heardBefore = eventsHeard;
      try {
        apply(await kasten.embeddings.configure({ ...settings, confirmKey }), heardBefore);
        set({ error: null });
        return true;
      } catch (error) {
        // A `confirm-key` refusal becomes a question to the user rather than an error.
        if (isKastenError(error) && error.code === 'confirm-key') {
          set({ keyConfirmation: { settings, message: error.message } });
        } else {
          set({ error: describeError(error) });
        }
        return false;
      }
    },
    async run() {
      set({ error: null });
      try {
        // The report arrives when the run ends; its progress and failure come as events meanwhile.
        await kasten.embeddings.run();
      } catch (error) {
        set({ error: describeError(error) });
      }
      await get().load();
    },
    async cancel() {
      await kasten.embeddings.cancel();
    },
    dismissKeyConfirmation() {
      set({ keyConfirmation: null });
    },
  };
});

const active = (state: EmbeddingProgress['state'] | undefined) => state === 'running' || state === 'paused';

let subscribed = false;
/** Follows embedding runs; a run's end refreshes the counts and the notes found similar. */
export function startEmbeddingSync(): void {
  if (subscribed) return;
  subscribed = true;
  kasten.embeddings.onProgress((progress) => {
    eventsHeard++;
    const was = useEmbeddingStore.getState().progress?.state;
    useEmbeddingStore.setState({ progress });
    if (active(progress.state)) return;
    if (active(was)) useEmbeddingStore.setState(({ revision }) => ({ revision: revision + 1 }));
    void useEmbeddingStore.getState().load();
  });
  kasten.vault.onChanged((change) => {
    if (change.reason === 'opened') void useEmbeddingStore.getState().load();
  });
  void useEmbeddingStore.getState().load();
}

/** Whether embeddings are turned on, or a run still goes on after they were turned off. */
export function embeddingsShown(state: Pick<EmbeddingState, 'status' | 'progress'>): boolean {
  return state.status?.settings.enabled === true || active(state.progress?.state);
}
