import type { PriceSource } from './cost/cost-domain';
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

/**
 * Whether a note is summarized by the model when it is first used (shown in the note panel, referenced in
 * a chat) and has no summary of its content yet. The whole vault is summarized only when asked.
 */
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

/** Runs that would call the model for more notes than this need the user's go-ahead (see SummaryEstimate). */
export const summariesWithoutAsking = 200;

/**
 * What summarizing the whole vault (or the notes asked about) would take, said before it starts: the
 * notes that need a model call, the tokens sent and written, and for a hosted model the cost when its
 * price is known.
 */
export interface SummaryEstimate {
  /** The model that would write the summaries, and its server. */
  model: string;
  server: string;
  /** The server is not on this machine: each call may be billed. */
  hosted: boolean;
  /** Notes that need a model call (notes with the same content share one). */
  notes: number;
  /** Notes that already have a summary for their content, model and prompt version. */
  cached: number;
  /** Tokens sent: each note (up to the part a summary reads) with the summary prompt, as Kasten counts. */
  inputTokens: number;
  /** Tokens written: an allowance of `replyTokens` for each one-to-two sentence summary. */
  outputTokens: number;
  replyTokens: number;
  /** US dollars at the model's price; null when Kasten knows no price for it (or it is not hosted). */
  cost: {
    usd: number;
    inputPerMillion: number;
    outputPerMillion: number;
    /** A page that lists the price ('' for the user's or the server's own). */
    source: string;
    priceSource: PriceSource;
  } | null;
  /** Over `summariesWithoutAsking` notes: `summaries:run` needs `confirmed` to start. */
  needsConfirmation: boolean;
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
