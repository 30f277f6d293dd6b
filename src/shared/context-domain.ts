import type { ContextWindowSource } from './chat-domain';

/** The parts a request is made of; the budget breakdown and the request context use the same names. */
export type ContextKind =
  | 'system'
  | 'tools'
  | 'rule'
  | 'pinned'
  | 'reference'
  | 'summary'
  | 'history'
  | 'agent-prompt'
  | 'attachment'
  | 'current'
  | 'tool-results';

/** The parts in the order a request lays them out: breakdowns list them so. */
export const contextKinds: readonly ContextKind[] = [
  'system',
  'tools',
  'rule',
  'pinned',
  'reference',
  'summary',
  'history',
  'agent-prompt',
  'attachment',
  'current',
  'tool-results',
];

/** How an item came into the request. */
export type IncludeMode = 'always' | 'manual' | 'agent' | 'direct' | 'retrieved' | 'history';

export const contextStrategies = ['discard', 'summarize', 'hybrid'] as const;
export type ContextStrategy = (typeof contextStrategies)[number];

/** One entry of the request context: what went into the request, how, and what it cost. */
export interface RequestItem {
  kind: ContextKind;
  label: string;
  path?: string;
  include: IncludeMode;
  score?: number;
  /** Tokens; a request's items add up to its estimate. */
  tokens: number;
  /**
   * `cut`: head … tail with a notice; `fallback`: the stand-in; `masked`: old tool results or attachments
   * stubbed; `chunks`: a pinned note too long to give whole, as its passages most relevant to the question;
   * `title`: a linked note's title and how to read it, when not even its summary fits.
   */
  form: 'whole' | 'cut' | 'fallback' | 'masked' | 'chunks' | 'title';
  /**
   * Why an item went in less than whole, in plain words with the figures that decided it: "cut to head
   * and tail: 13,712 tokens, 3,104 available for the notes named in this message". Absent when whole.
   */
  reason?: string;
  /** For history and summary: the database ids of the messages it stands for. */
  messageIds?: number[];
}

/** Something offered that is not in the request, and why. */
export interface DroppedItem {
  kind: ContextKind;
  label: string;
  path?: string;
  include: IncludeMode;
  score?: number;
  tokens: number;
  reason: string;
}

export interface PartTokens {
  part: ContextKind;
  tokens: number;
}

export interface CalibrationInfo {
  /** Provider tokens per local token; 1 until the provider has reported usage. */
  ratio: number;
  /** Responses (requests) it was learned from; 0: uncalibrated. */
  samples: number;
  /** Answers it was learned from: an answer makes a request per tool step. */
  answers: number;
}

/** Exactly what one model request of an answer held: counted before sending, reported after. */
export interface RequestContext {
  /** The agent-loop step (0 first); a retry after a context-length error keeps its step. */
  step: number;
  window: number;
  usable: number;
  /** Kasten's calibrated count, made before sending. */
  estimated: number;
  /** Prompt tokens the provider reported for it; null when it reported none. */
  reported: number | null;
  /**
   * Of those, the tokens the server read from its prompt cache rather than processing them again;
   * null or absent when it reported none (or a figure larger than the prompt, which is not believed).
   */
  cached?: number | null;
  calibration: CalibrationInfo;
  strategy: ContextStrategy;
  /** Tokens by part; they add up to `estimated`. */
  parts: PartTokens[];
  /** Every item, with tokens adding up to `estimated`. */
  items: RequestItem[];
  dropped: DroppedItem[];
  notices: string[];
  /** Sent again, smaller, after the provider refused the first try as too long. */
  retried: boolean;
  /**
   * Tool results of earlier messages before this id were masked (null or absent: none were). The next
   * request masks at least as much, so that what it starts with stays what this one sent.
   */
  maskedBefore?: number | null;
  /**
   * Set when the request could not be made to fit (or was refused again): what it needed and what the
   * window has. The answer then ends with an error the user can act on (compact, drop a note, new chat).
   */
  overflow?: { needed: number; available: number };
}

/** A summary that stands for older messages in the prompt; the messages themselves are kept. */
export interface SessionCompaction {
  id: number;
  text: string;
  /** The messages it summarizes, progressive: a newer compaction covers the older one's too. */
  coveredIds: number[];
  tokens: number;
  /** What the covered messages cost before. */
  replacedTokens: number;
  focus: string | null;
  createdAt: string;
}

/** The context meter: what the next request of a session (with the message being typed) would hold. */
export interface ContextStatus {
  model: string;
  window: number;
  windowSource: ContextWindowSource;
  /** When the server named the window, for `server-error` (ISO 8601); null otherwise. */
  windowNamedAt: string | null;
  usable: number;
  /** Calibrated tokens of the next request, draft included. */
  estimated: number;
  /** The draft's share: its words and the notes it links. */
  draftTokens: number;
  parts: PartTokens[];
  /** Each pinned note in the request and what it takes: the figure the Context tab shows for it. */
  pinned: { path: string; tokens: number }[];
  /** The last prompt size the provider reported in this session. */
  reported: number | null;
  calibration: CalibrationInfo;
  strategy: ContextStrategy;
  compactions: number;
  /** `warn` past 70% of usable, `full` past 90%. */
  level: 'ok' | 'warn' | 'full';
}

/** The meter's colour for `used` of `usable`. */
export function contextLevel(used: number, usable: number): ContextStatus['level'] {
  if (usable <= 0 || used > usable * 0.9) return 'full';
  return used > usable * 0.7 ? 'warn' : 'ok';
}

/** How requests are fitted to the window; Settings → Context. */
export interface ContextSettings {
  /** The strategy a new chat starts with; each chat can change its own. */
  strategy: ContextStrategy;
  /** Shares of the usable window in percent: the system prompt; tools, rules and notes; the conversation. */
  shares: { system: number; context: number; conversation: number };
  /** Percent of the usable window past which `summarize` and `hybrid` compact. */
  threshold: number;
  /** Turns kept word for word after a compaction. */
  tailTurns: number;
}

export const defaultContextSettings: ContextSettings = {
  strategy: 'hybrid',
  shares: { system: 10, context: 30, conversation: 60 },
  threshold: 80,
  tailTurns: 4,
};
