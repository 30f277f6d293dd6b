import { create } from 'zustand';
import type { ContextWindow, ModelSettings } from '../../../../shared/chat-domain';
import type {
  ConnectionReport,
  ModelInfo,
  ModelSetup,
  SummaryEstimate,
  SummaryProgress,
} from '../../../../shared/model-domain';
import { isKastenError } from '../../../../shared/kasten-api';
import { describeError, kasten } from '../../api';

/** A save or test waiting for the user to confirm that an environment variable's key may go to a new server. */
export interface PendingKeyConfirmation {
  action: 'save' | 'test';
  settings: ModelSettings;
  /** The main process's question, naming the variable and the server. */
  message: string;
}

/** A part of the settings another view can open them at. */
export type SettingsSection = 'semantic-search' | 'context-items' | 'mcp-servers';

interface SettingsState {
  setup: ModelSetup | null;
  /** The saved model's context window, as resolved by the main process. */
  window: ContextWindow | null;
  shown: boolean;
  /** The section the settings were opened at, scrolled into view; null: the top. */
  section: SettingsSection | null;
  /** What "Test connection" said last, for the draft it tested. */
  report: ConnectionReport | null;
  testing: boolean;
  models: ModelInfo[] | null;
  modelsError: string | null;
  summaries: SummaryProgress | null;
  error: string | null;
  keyConfirmation: PendingKeyConfirmation | null;
  load(): Promise<void>;
  show(shown: boolean, section?: SettingsSection): void;
  /** `confirmKey`: the user confirmed sending the named variable's key to this server. */
  save(settings: ModelSettings, confirmKey?: boolean): Promise<boolean>;
  setKey(key: string | null): Promise<boolean>;
  test(draft: ModelSettings, confirmKey?: boolean): Promise<void>;
  dismissKeyConfirmation(): void;
  listModels(draft: ModelSettings): Promise<void>;
  setBackgroundSummaries(background: boolean): Promise<void>;
  /** What summarizing the whole vault would take; null when it could not be said (see `error`). */
  estimateSummaries(): Promise<SummaryEstimate | null>;
  /** Summarizes the whole vault; `confirmed` once its estimate was shown (needed past 200 notes). */
  summarizeVault(confirmed: boolean): Promise<void>;
  cancelSummaries(): Promise<void>;
}

/** Model settings, the resolved context window and summary progress, mirrored from the main process. */
export const useSettingsStore = create<SettingsState>((set, get) => {
  /** A `confirm-key` refusal becomes a question to the user rather than an error. */
  const askedToConfirm = (
    error: unknown,
    action: PendingKeyConfirmation['action'],
    settings: ModelSettings,
  ) => {
    if (!isKastenError(error) || error.code !== 'confirm-key') return false;
    set({ keyConfirmation: { action, settings, message: error.message } });
    return true;
  };
  const attempt = async (
    work: () => Promise<void>,
    pending?: Omit<PendingKeyConfirmation, 'message'>,
  ): Promise<boolean> => {
    try {
      await work();
      set({ error: null });
      return true;
    } catch (error) {
      if (!pending || !askedToConfirm(error, pending.action, pending.settings)) {
        set({ error: describeError(error) });
      }
      return false;
    }
  };
  const refreshWindow = () =>
    kasten.models.window().then(
      (window) => set({ window }),
      () => set({ window: null }),
    );
  return {
    setup: null,
    window: null,
    shown: false,
    section: null,
    report: null,
    testing: false,
    models: null,
    modelsError: null,
    summaries: null,
    error: null,
    keyConfirmation: null,
    async load() {
      await attempt(async () => set({ setup: await kasten.models.settings() }));
      void refreshWindow();
      kasten.summaries.status().then(
        (summaries) => set({ summaries }),
        () => {},
      );
    },
    show(shown, section) {
      set({ shown, section: section ?? null, report: null, error: null, keyConfirmation: null });
      if (shown) void get().load();
    },
    save(settings, confirmKey = false) {
      set({ keyConfirmation: null });
      return attempt(
        async () => {
          set({ setup: await kasten.models.configure({ ...settings, confirmKey }), window: null });
          void refreshWindow();
        },
        { action: 'save', settings },
      );
    },
    setKey(key) {
      return attempt(async () => {
        set({ setup: await kasten.models.key({ key }) });
        void refreshWindow();
      });
    },
    async test(draft, confirmKey = false) {
      set({ testing: true, report: null, keyConfirmation: null });
      try {
        const report = await kasten.models.test({ ...draft, confirmKey });
        set({ report, models: report.models.length > 0 ? report.models : get().models });
      } catch (error) {
        if (!askedToConfirm(error, 'test', draft)) {
          set({ report: { ok: false, problem: 'server', message: describeError(error), models: [] } });
        }
      } finally {
        set({ testing: false });
      }
    },
    dismissKeyConfirmation() {
      set({ keyConfirmation: null });
    },
    async listModels(draft) {
      try {
        set({ models: await kasten.models.list(draft), modelsError: null });
      } catch (error) {
        set({ models: null, modelsError: describeError(error) });
      }
    },
    async setBackgroundSummaries(background) {
      // Shown at once; the main process's answer confirms it (or an error puts it back).
      const setup = get().setup;
      if (setup) set({ setup: { ...setup, summaries: { background } } });
      const saved = await attempt(async () =>
        set({ setup: await kasten.summaries.configure({ background }) }),
      );
      if (!saved && setup) set({ setup });
    },
    async estimateSummaries() {
      let estimate: SummaryEstimate | null = null;
      await attempt(async () => {
        estimate = await kasten.summaries.estimate();
      });
      return estimate;
    },
    async summarizeVault(confirmed) {
      await attempt(async () => {
        await kasten.summaries.run({ confirmed });
      });
    },
    async cancelSummaries() {
      await kasten.summaries.cancel();
    },
  };
});

let subscribed = false;
export function startSettingsSync(): void {
  if (subscribed) return;
  subscribed = true;
  void useSettingsStore.getState().load();
  kasten.summaries.onProgress((summaries) => useSettingsStore.setState({ summaries }));
  // A server named its window in a refusal, or a kept one was dropped: the status bar and Settings follow.
  kasten.models.onWindowChanged((window) => useSettingsStore.setState({ window }));
}
