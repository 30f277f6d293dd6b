import type { ContextStrategy, IncludeMode, RequestItem } from '../../shared/context-domain';
import type { LlmMessage } from '../llm/llm-types';
import type { HistoryCut } from './history/history-plan';

export type {
  ContextKind,
  ContextStrategy,
  DroppedItem,
  IncludeMode,
  RequestItem,
} from '../../shared/context-domain';

/** A tool as it is sent to the model: what its schema costs is what is counted. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: unknown;
}

/** The model a request is for. */
export interface ModelProfile {
  /** Calibration is kept per key: the provider's address and the model id, for example. */
  key: string;
  /** The model id as the provider names it; chooses the encoding. */
  model: string;
  provider?: 'openai-compatible' | 'anthropic';
}

/**
 * A tool offered in every request (`always`), because the user added it to the chat (`manual`), or
 * because the answer's first request chose it for the question (`agent`, with its score): an answer's
 * later requests offer the same tools.
 */
export interface OfferedTool extends ToolSchema {
  include?: 'always' | 'manual' | 'agent';
  score?: number;
  /** An MCP server's tool: sent while the share for tools and items has room for it, else left out and said. */
  optional?: boolean;
}

/** A file attached to an earlier message, as the model is given it there: whole, or a stub when masked. */
export interface HistoryAttachment {
  /** The file's text with its frame (name, kind). */
  text: string;
  /** What stands in for it: its name, size and how to read it again. */
  stub: string;
}

/**
 * One message of the stored conversation in the form it is sent. An answer that used tools spans
 * several (assistant with tool calls, tool results, …) under its one database id.
 */
export interface ConversationMessage {
  id: number;
  message: LlmMessage;
  /** For a question: the files sent with it, given to the model just before its words. */
  attachments?: readonly HistoryAttachment[];
}

/** A passage of a pinned note, scored for the question. */
export interface NotePassage {
  text: string;
  /** Relevance to the question; higher first. */
  score: number;
  /** Its place in the note. */
  position: number;
  /** The headings it stands under. */
  heading: string;
}

/** The summary that stands for older messages in the prompt; the messages stay in the database. */
export interface StoredSummary {
  text: string;
  coveredIds: readonly number[];
}

/** A rule, pinned note, reference, attachment or tool chosen for relevance, offered for the request. */
export interface ContextItemInput {
  kind: 'rule' | 'pinned' | 'reference' | 'attachment' | 'tools';
  label: string;
  path?: string;
  include: Exclude<IncludeMode, 'history'>;
  score?: number;
  /** The text as the model is given it (a note as a numbered JSON document, a rule's body). */
  text: string;
  /** A shorter stand-in when `text` does not fit: the note's summary and how to read the rest. */
  fallback?: string;
  /** A linked note's least stand-in, when not even `fallback` fits: its title and how to read it. */
  stub?: string;
  /** How the model can read what a cut leaves out ("call read_note with …"), for the cut notice. */
  readHint?: string;
  /** A tool offered for relevance: its schema, sent with the tools and counted as sent. */
  tool?: ToolSchema;
  /** A pinned note: its passages scored for the question, for when the whole note does not fit. */
  passages?: readonly NotePassage[];
  /** Lays chosen passages out (in the note's order) as the text the model is given. */
  excerpt?: (chosen: readonly NotePassage[]) => string;
}

export interface AssembleInput {
  model: ModelProfile;
  /** The context window the server runs with, in tokens. */
  window: number;
  strategy?: ContextStrategy;
  /** Kasten's system prompt, or how to write it once the request's tools are known. */
  system: string | ((tools: readonly string[]) => string);
  /** Tools in every request; tools chosen for relevance come as items. */
  tools?: readonly OfferedTool[];
  items?: readonly ContextItemInput[];
  /** The custom agent prompt, sent as a user message just above the latest question. */
  agentPrompt?: string | null;
  summary?: StoredSummary | null;
  /** Earlier turns, oldest first, without the current user message. */
  history: readonly ConversationMessage[];
  /** The user's latest message. */
  current: { id: number; text: string };
  /** This turn's tool calls and results so far (the agent loop's earlier steps). */
  turn?: readonly LlmMessage[];
  /** Sent last, each wrapped in `<system-reminder>` tags. */
  reminders?: readonly string[];
  /** The retry after a context-length error: a smaller budget, old tool results masked, no optional items. */
  aggressive?: boolean;
  /** `/compact [focus]`: plan a compaction now, whatever the threshold says. */
  compactNow?: { focus?: string };
  /** Where the chat's previous request (with the same summary) cut its history: this one cuts no earlier. */
  previousCut?: HistoryCut | null;
  /**
   * The linked notes (of `items`) as the answer's first request gave them: its later requests give them
   * so again while they fit, so that what follows the question starts with what was sent before.
   */
  sent?: ReadonlyMap<ContextItemInput, SentItem>;
}

/** A linked note as a request gave it. */
export interface SentItem {
  text: string;
  form: RequestItem['form'];
  reason?: string;
}
