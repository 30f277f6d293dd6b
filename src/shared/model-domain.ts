import type { ContextWindow, ModelSettings } from './chat-domain';

/** A model a provider offers, with its context window when the listing gives one. */
export interface ModelInfo {
  id: string;
  contextLength: number | null;
}

/** What "Test connection" found, in a sentence that names the URL and says what to do. */
export interface ConnectionReport {
  ok: boolean;
  problem: 'unreachable' | 'auth' | 'unknown-model' | 'no-model' | 'server' | null;
  message: string;
  /** What the provider offers; empty when it could not be listed. */
  models: ModelInfo[];
}

/** Where the API key for the configured server comes from. The key itself never leaves the main process. */
export interface KeyStatus {
  /** `stored`: saved encrypted by the desktop app; `environment`: the variable named in the settings. */
  source: 'stored' | 'environment' | null;
  /** Whether this host can keep a key (the desktop app, with the system's keychain). */
  canStore: boolean;
  /** Why the environment variable the settings name is not read, or null. */
  refusal: string | null;
}

/** Model settings as sent to be saved, listed or tested. */
export interface ModelSettingsRequest extends ModelSettings {
  /** The user confirmed that the key in `apiKeyEnv` may be sent to `baseUrl`. */
  confirmKey?: boolean;
}

/** Whether notes are summarized by the model in the background as they are indexed and edited. */
export interface SummarySettings {
  background: boolean;
}

/** The settings view's data: model settings, how the key is provided, summary settings. */
export interface ModelSetup {
  settings: ModelSettings;
  key: KeyStatus;
  summaries: SummarySettings;
  /** False when this run was started with background summaries off (`kasten serve --no-summaries`). */
  backgroundAllowed: boolean;
}

export type { ContextWindow };

/** Where a summary run stands; `total` counts the notes that need a model call, not the cached ones. */
export interface SummaryProgress {
  state: 'idle' | 'running' | 'cancelled';
  done: number;
  total: number;
  failed: number;
  /** The first failure of the run, prefixed with its note's path. */
  firstError: string | null;
}

/** The outcome of one summary run. */
export interface SummaryReport {
  model: string;
  /** Notes asked for that the index knows. */
  notes: number;
  /** Notes given a new summary by the model in this run. */
  summarized: number;
  /** Notes that already had a summary for their content, model and prompt version. */
  cached: number;
  failed: number;
  /** The first failure, prefixed with its note's path; the rest are usually the same. */
  firstError: string | null;
  cancelled: boolean;
  ms: number;
}
