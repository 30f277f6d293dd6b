import type { z } from 'zod';
import type { ContextWindow } from '../../shared/chat-domain';

/** A message as the chat service hands it to a model: provider-neutral. */
export type LlmMessage =
  /** `parts`, when given, is what is sent: the text with images in their places (see images/). */
  | { role: 'user'; text: string; parts?: LlmUserPart[] }
  | { role: 'assistant'; text: string; toolCalls: LlmToolCall[] }
  | { role: 'tool'; results: LlmToolResult[] };

/** A run of a user message's text, or an image as its provider takes it. */
export type LlmUserPart =
  { type: 'text'; text: string } | { type: 'image'; data: Uint8Array; mediaType: string };

export interface LlmToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface LlmToolResult {
  id: string;
  name: string;
  output: string;
  isError: boolean;
}

export interface LlmTool {
  name: string;
  description: string;
  input: z.ZodType;
  /**
   * The input's JSON Schema as another program gave it (an MCP server's tool): sent as it is, and the
   * arguments are checked by that program, not here. `input` is then any value.
   */
  jsonSchema?: Record<string, unknown>;
}

/** What one model call streams back. */
export type LlmEvent =
  | { type: 'text'; text: string }
  /** `error` is set when the call cannot be run: unknown tool, arguments that are not valid JSON or do not fit. */
  | { type: 'tool-call'; id: string; name: string; input: unknown; error: string | null }
  /** The model began writing a tool call; its `tool-call` follows once the call is complete. */
  | { type: 'tool-call-started'; id: string }
  | { type: 'finish'; usage: LlmUsage };

/** What the server reported for one call; null where it reported nothing. */
export interface LlmUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  /** Prompt tokens the server read from its prompt cache instead of processing them again. */
  cachedInputTokens?: number | null;
  /** Prompt tokens the server wrote to its prompt cache (Anthropic's `cache_creation_input_tokens`). */
  cacheWriteTokens?: number | null;
}

export interface LlmRequest {
  system: string;
  messages: LlmMessage[];
  tools: LlmTool[];
  signal: AbortSignal;
  /** The longest answer to allow, in tokens: the room the request's plan keeps free for it. */
  maxOutputTokens?: number;
  /**
   * The context window the request was planned for, in tokens. Ollama's native API runs the model with it
   * (`num_ctx`); without it the model service's resolved window is used. Other providers ignore it.
   */
  contextWindow?: number;
}

/** One step of a conversation with a model: a streamed answer that may end in tool calls. */
export interface ChatModel {
  readonly name: string;
  /**
   * The window of a model other than the configured one (a saved prompt's `model:`), looked up for it:
   * its requests are planned in it. Absent for the configured model, whose window every view shows.
   */
  readonly contextWindow?: () => Promise<ContextWindow>;
  stream(request: LlmRequest): AsyncIterable<LlmEvent>;
}

/** A failed model call, explained for the user. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'auth' | 'rate-limit' | 'server' | 'stream-cut' | 'bad-request' | 'other',
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
