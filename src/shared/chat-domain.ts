/** Which kind of server answers: any OpenAI-compatible one (Ollama, LM Studio, vLLM, OpenAI…) or Anthropic. */
export type ProviderKind = 'openai-compatible' | 'anthropic';

/** The model chat uses. Keys are not part of this: they stay in the main process. */
export interface ModelSettings {
  provider: ProviderKind;
  /** For OpenAI-compatible servers it includes `/v1`, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  model: string;
  /** The environment variable holding the API key (CLI and browser host). */
  apiKeyEnv: string | null;
  /** The user's override of the model's context window, in tokens. */
  contextWindow: number | null;
}

/** Where the context window figure came from, most trusted first. */
export type ContextWindowSource = 'user' | 'provider' | 'known-model' | 'fallback';

export interface ContextWindow {
  tokens: number;
  source: ContextWindowSource;
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
}

/** What the model was given besides the user's words (referenced notes); not shown as message text. */
export interface ContextPart {
  type: 'context';
  step: number;
  text: string;
}

export type MessagePart = TextPart | ToolCallPart | ContextPart;

/** How a note was used by a message. */
export type ReferenceKind = 'direct' | 'broken' | 'read' | 'search-hit' | 'cited';

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
}

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
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
  createdAt: string;
  updatedAt: string;
}

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
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
}

/** The whole text of a message, its text parts joined. */
export function messageText(message: Pick<ChatMessage, 'parts'>): string {
  return message.parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
}
