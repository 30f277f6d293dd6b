import { create } from 'zustand';
import type { ConnectionReport } from '../../../../shared/model-domain';
import { kasten } from '../../api';
import { useSettingsStore } from '../settings/settings-store';

interface ModelHealthState {
  /** The last check of the chat model's server; null before one, or with no model chosen. */
  report: ConnectionReport | null;
  check(): Promise<void>;
}

/** While the model is unreachable or missing, how often it is checked again (it may come back). */
const recheckMs = 10_000;
let timer: ReturnType<typeof setTimeout> | null = null;
let latest = 0;

/**
 * Whether the chat model can answer, known before anything is sent: checked on start, when the settings
 * change, after an answer failed, and every 10 s while it cannot — never per keystroke.
 */
export const useModelHealthStore = create<ModelHealthState>((set) => ({
  report: null,
  async check() {
    if (timer) clearTimeout(timer);
    timer = null;
    const request = ++latest;
    if (!useSettingsStore.getState().setup?.settings.model) return set({ report: null });
    let report: ConnectionReport;
    try {
      report = await kasten.models.test();
    } catch {
      // The host itself is unreachable: the connection banner says so.
      return;
    }
    if (request !== latest) return;
    set({ report });
    if (!report.ok) timer = setTimeout(() => void useModelHealthStore.getState().check(), recheckMs);
  },
}));

let started = false;
/** Checks at start, when the model settings change, and after an answer ends in an error. */
export function startModelHealth(): void {
  if (started) return;
  started = true;
  const check = () => void useModelHealthStore.getState().check();
  let settings = useSettingsStore.getState().setup?.settings;
  useSettingsStore.subscribe((state) => {
    if (state.setup?.settings === settings) return;
    settings = state.setup?.settings;
    check();
  });
  kasten.chat.onMessage((message) => {
    if (message.status === 'error') check();
  });
  check();
}

/** The status bar's words for a problem, as short as Test connection's diagnosis is long. */
export const problemWords: Record<NonNullable<ConnectionReport['problem']>, string> = {
  unreachable: 'Model server unreachable',
  auth: 'API key rejected',
  'unknown-model': 'Model not found',
  'no-model': 'No model chosen',
  server: 'Model server error',
};
