import type { AttachmentInfo } from './context-items-domain';
import type { SelectionPart } from './selection-domain';
import type { ContextStrategy, RequestContext, SessionCompaction } from './context-domain';
import type { AnswerCost, UsageTotal } from './cost/cost-domain';
import type { PromptPart } from './prompt-domain';

/**
 * Which kind of server answers: Ollama through its native API (Kasten sets the window on each request),
 * any OpenAI-compatible one (LM Studio, llama.cpp, vLLM, OpenAI, OpenRouter, Ollama's `/v1`…) or Anthropic.
 */
export type ProviderKind = 'ollama' | 'openai-compatible' | 'anthropic';

/** The model chat uses. Keys are not part of this: they stay in the main process. */
export interface ModelSettings {
  provider: ProviderKind;
  /**
   * Ollama's native API is at the server root, e.g. `http://127.0.0.1:11434`; OpenAI-compatible servers
   * include `/v1`, e.g. `http://127.0.0.1:1234/v1`.
   */
  baseUrl: string;
  model: string;
  /** The environment variable holding the API key (CLI and browser host). */
  apiKeyEnv: string | null;
  /** The user's override of the model's context window, in tokens. */
  contextWindow: number | null;
  /**
   * The model on the same server that writes summaries (of notes, and of a chat when it is compacted);
   * null: the chat model writes them.
   */
  summaryModel: string | null;
}

/**
 * Where the context window figure came from. Every figure is the window the server runs the model with,
 * except `provider`, `known-model` and `fallback`, which are the best guesses when the server does not say.
 * - `user`: the user's setting (for Ollama's native API it is also what Kasten sends as `num_ctx`)
 * - `ollama-num-ctx`: Kasten's default for Ollama's native API, sent as `num_ctx` on every request
 * - `modelfile`: the model's Modelfile (`PARAMETER num_ctx`), from Ollama's `/api/show`
 * - `ollama-loaded`: the window Ollama has the model loaded with (`/api/ps`)
 * - `ollama-default`: Ollama's own default, which its OpenAI-compatible API cannot change
 * - `server-loaded`: the window another server runs the model with (llama.cpp `/props`, LM Studio)
 * - `provider`: the figure the provider's model list gives
 * - `server-error`: the window the server named when it refused a request as too long, kept for the
 *   server and model until the user sets one, the server's metadata says otherwise, or a larger request fits
 */
export type ContextWindowSource =
  | 'user'
  | 'ollama-num-ctx'
  | 'modelfile'
  | 'ollama-loaded'
  | 'ollama-default'
  | 'server-loaded'
  | 'provider'
  | 'server-error'
  | 'known-model'
  | 'fallback';

export interface ContextWindow {
  tokens: number;
  source: ContextWindowSource;
  /** For `server-error`: when the server named it (ISO 8601). */
  namedAt?: string;
}

export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'error' | 'interrupted';

export interface TextPart {
  type: 'text';
  /** The agent-loop step that produced it (0 for the first model call). */
  step: number;
  text: string;
}

export interface ToolCallPart {
  type: 'tool-call';
  step: number;
  id: string;
  name: string;
  args: unknown;
  /** Null while the tool runs. */
  ok: boolean | null;
  /** What the model was given back (the result or the error); null while the tool runs. */
  output: string | null;
  /** For a write tool whose change was shown: the change and the user's decision on it. */
  approval?: WriteApproval;
}

/** A change a write tool would make, exactly as shown to the user before anything is written. */
export type ProposedChange =
  | { kind: 'create'; path: string; content: string }
  | {
      kind: 'append';
      path: string;
      /** The file written when `path` is a symlink to another note of the vault. */
      realPath?: string;
      /** The heading whose section the lines end; null: they go at the end of the note. */
      heading: string | null;
      /** The lines added, blank separator lines included. */
      added: string[];
      /** 1-based line of the first added line in the note as it will be. */
      line: number;
      /** The lines just before the added ones, and the one just after them (if any), unchanged. */
      before: string[];
      after: string[];
    }
  | {
      kind: 'edit';
      path: string;
      /** The file written when `path` is a symlink to another note of the vault. */
      realPath?: string;
      /** What the model named: one exact passage, or a heading whose section's text is replaced. */
      target: 'passage' | 'section';
      /** The heading of the section the change is in, as the note spells it; null: before any heading. */
      section: string | null;
      /** 1-based line of the note where `diff` starts. */
      line: number;
      /** The section as it reads and will read, word by word (line breaks as \n). */
      diff: DiffSegment[];
    };

/**
 * A stretch of an edit's word-level diff: text both versions share, text removed or added, or a run of
 * unchanged lines far from the change that is not shown (`elided`, with how many lines).
 */
export type DiffSegment =
  { kind: 'same' | 'removed' | 'added'; text: string } | { kind: 'elided'; lines: number };

/**
 * A write's way: waiting for the user; written (`approved`); `rejected` (also when the answer was
 * stopped while waiting); approved but refused when writing (`failed`: the note changed meanwhile);
 * `interrupted` (Kasten stopped while it waited); written and later taken back (`undone`). Only
 * `approved` and `undone` wrote anything.
 */
export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'failed' | 'interrupted' | 'undone';

export interface WriteApproval {
  change: ProposedChange;
  state: ApprovalState;
  /** Written without asking: the user allows writes in this chat. */
  byChat?: true;
}

/** Whether the model may propose changes to the open vault (each still waits for approval). */
export interface WriteSettings {
  /** The open vault; null when none is open. */
  vault: string | null;
  enabled: boolean;
}

/** What the model was given besides the user's words (referenced notes); not shown as message text. */
export interface ContextPart {
  type: 'context';
  step: number;
  text: string;
}

/** A file sent with a question: its text went to the model with it (and is kept with the message). */
export interface AttachmentPart {
  type: 'attachment';
  step: number;
  attachment: AttachmentInfo;
}

export type MessagePart = TextPart | ToolCallPart | ContextPart | AttachmentPart | PromptPart | SelectionPart;

/** How a note was used by a message. */
/**
 * `selection`: a passage the user selected in the note (its text, cut, is the reference's `summary`);
 * `web`: a web page given with the question (its `path` is the page's address).
 */
export type ReferenceKind = 'direct' | 'broken' | 'read' | 'search-hit' | 'cited' | 'selection' | 'web';

export interface ChatReference {
  /** Vault-relative path; for a broken direct reference, the link target as typed. */
  path: string;
  title: string;
  kind: ReferenceKind;
  /** The tool call that surfaced it (read, search hit). */
  toolCallId: string | null;
  /** The note's document number in the session, when the model was given one. */
  document: number | null;
  /** Heading or block the reference points into (`Heading`, `^block`). */
  subpath: string | null;
  /** For direct references: the note inline, or only its summary (it did not fit the budget). */
  mode: 'inline' | 'summary' | null;
  /** Tokens the reference cost in the request. */
  tokens: number | null;
  /** The extractive summary (lead paragraph). */
  summary: string;
  /** For a direct reference: the alias the message named the note by (an alias names no note in a note). */
  viaAlias?: string;
}

export interface TokenUsage {
  /** Prompt tokens, those read from or written to the server's cache included. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** Of the prompt, tokens read from the server's cache (billed at the cached price). */
  cachedInputTokens?: number | null;
  /** Of the prompt, tokens written to the server's cache (Anthropic bills them above input). */
  cacheWriteTokens?: number | null;
  /** For an answer: what its calls cost, at the price in force when it was written. */
  cost?: AnswerCost;
}

export interface ChatMessage {
  id: number;
  sessionId: string;
  role: 'user' | 'assistant';
  parts: MessagePart[];
  status: MessageStatus;
  model: string | null;
  /** Why the answer failed, in a sentence the user can act on. */
  error: string | null;
  usage: TokenUsage | null;
  references: ChatReference[];
  /** For an answer: what each of its model requests held (the "Context used" view); [] otherwise. */
  requests: RequestContext[];
  createdAt: string;
  updatedAt: string;
  /**
   * While an answer streams, the number of its announcements so far (`chat:message` or `chat:delta`);
   * absent on a message read from the database or finished.
   */
  sequence?: number;
}

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

/** A session as `sessions:list` gives it: with its answers' tokens and cost added up. */
export interface SessionListing extends SessionSummary {
  usage: UsageTotal;
}

/** A note the session has numbered for citations; the number never changes within the session. */
export interface SessionDocument {
  number: number;
  path: string;
  title: string;
}

export interface ChatSession extends SessionSummary {
  messages: ChatMessage[];
  documents: SessionDocument[];
  /** How the session's requests are fitted to the window. */
  strategy: ContextStrategy;
  /** Summaries made of older messages, oldest first; the newest stands for them in the prompt. */
  compactions: SessionCompaction[];
}

/** The whole text of a message, its text parts joined. */
export function messageText(message: Pick<ChatMessage, 'parts'>): string {
  return message.parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/** A chat exported to a note: where, and whether an earlier export was updated rather than a note made. */
export interface ChatExport {
  path: string;
  updated: boolean;
}

/** What Kasten wrote for a chat: a write tool's approved change, or the chat exported to a note. */
export type WriteKind = 'create' | 'append' | 'edit' | 'export';

/** What became of one change the user asked to undo. */
export interface UndoOutcome {
  kind: WriteKind;
  /** The note written (for a link, the note it leads to). */
  path: string;
  /** Whether the note now holds, byte for byte, what it held before the change (or is gone again). */
  undone: boolean;
  /** In plain words: what was restored, or why nothing was. */
  message: string;
}
