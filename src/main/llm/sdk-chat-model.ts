import {
  streamText,
  jsonSchema,
  tool,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import type { ContextWindow, ModelSettings } from '../../shared/chat-domain';
import type { ChatModel, LlmEvent, LlmMessage, LlmRequest } from './llm-types';
import { failFast } from './fail-fast-fetch';
import { describeModelError } from './model-errors';
import { ollamaLanguageModel, ollamaRequestOptions } from './ollama-model';
import { anthropicSdk, openAiCompatibleSdk } from './provider-sdks';

/**
 * Retries of a failed call (429, 5xx, dropped connection) before the error reaches the user; a server
 * that is not there at all is not retried (failFast).
 */
const maxRetries = 2;

/** The model of `settings` as the AI SDK calls it; only its provider's SDK is loaded. */
async function languageModel(settings: ModelSettings, apiKey: string | null): Promise<LanguageModel> {
  if (settings.provider === 'ollama') return ollamaLanguageModel(settings, apiKey);
  if (settings.provider === 'anthropic') {
    const { createAnthropic } = await anthropicSdk();
    return createAnthropic({ baseURL: settings.baseUrl, apiKey: apiKey ?? '', fetch: failFast() })(
      settings.model,
    );
  }
  const { createOpenAICompatible } = await openAiCompatibleSdk();
  return createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: settings.baseUrl,
    apiKey: apiKey ?? undefined,
    includeUsage: true,
    fetch: failFast(),
  })(settings.model);
}

/** `createChatModel`'s model once this module, the AI SDK and the provider's package are loaded. */
export async function sdkChatModel(
  settings: ModelSettings,
  apiKey: string | null,
  contextWindow: () => Promise<ContextWindow>,
): Promise<ChatModel> {
  const model = await languageModel(settings, apiKey);
  return {
    name: settings.model,
    async *stream(request: LlmRequest): AsyncIterable<LlmEvent> {
      const tools: ToolSet = {};
      for (const definition of request.tools) {
        tools[definition.name] = tool({
          description: definition.description,
          inputSchema: definition.jsonSchema ? jsonSchema(definition.jsonSchema) : definition.input,
        });
      }
      const numCtx =
        settings.provider === 'ollama' ? (request.contextWindow ?? (await contextWindow()).tokens) : null;
      let failure: unknown = null;
      const messages = toModelMessages(request.messages);
      const anthropic = settings.provider === 'anthropic';
      const result = streamText({
        model,
        // Anthropic reuses a cached prefix only up to a breakpoint: one closes the system prompt (with the
        // tools before it), one the message before the last (see `withCacheBreakpoint`).
        instructions: anthropic
          ? { role: 'system', content: request.system, providerOptions: ephemeral }
          : request.system,
        messages: anthropic ? withCacheBreakpoint(messages) : messages,
        tools,
        maxOutputTokens: request.maxOutputTokens,
        ...(numCtx === null
          ? {}
          : { providerOptions: ollamaRequestOptions(numCtx, request.maxOutputTokens) }),
        maxRetries,
        abortSignal: request.signal,
        onError: ({ error }) => {
          failure ??= error;
        },
      });
      try {
        yield* events(result.fullStream, request.signal, (error) => {
          failure ??= error;
        });
      } catch (error) {
        request.signal.throwIfAborted();
        throw describeModelError(error, settings);
      }
      request.signal.throwIfAborted();
      if (failure !== null) throw describeModelError(failure, settings);
    },
  };
}

/** The provider-neutral events of one streamed step; provider errors go to `onError`. */
async function* events(
  stream: AsyncIterable<TextStreamPart<ToolSet>>,
  signal: AbortSignal,
  onError: (error: unknown) => void,
): AsyncIterable<LlmEvent> {
  for await (const part of stream) {
    if (part.type === 'text-delta') yield { type: 'text', text: part.text };
    // Streamed as the model writes each call: the SDK hands on complete calls only once the reply ends.
    else if (part.type === 'tool-input-start') yield { type: 'tool-call-started', id: part.id };
    else if (part.type === 'tool-call') {
      const invalid = 'invalid' in part && part.invalid === true;
      yield {
        type: 'tool-call',
        id: part.toolCallId,
        name: part.toolName,
        input: part.input,
        error: invalid ? invalidCallMessage(part.toolName, 'error' in part ? part.error : null) : null,
      };
    } else if (part.type === 'finish-step') {
      yield {
        type: 'finish',
        usage: {
          inputTokens: part.usage.inputTokens ?? null,
          outputTokens: part.usage.outputTokens ?? null,
          cachedInputTokens: cachedTokensOf(part.usage),
          cacheWriteTokens: part.usage.inputTokenDetails?.cacheWriteTokens ?? null,
        },
      };
    } else if (part.type === 'error') onError(part.error);
    else if (part.type === 'abort') signal.throwIfAborted();
  }
}

/**
 * Prompt tokens the server read from its cache: OpenAI's `prompt_tokens_details.cached_tokens`,
 * Anthropic's `cache_read_input_tokens`. Null when the server said nothing of a cache (the SDK counts
 * that as 0).
 */
function cachedTokensOf(usage: LanguageModelUsage): number | null {
  const raw = usage.raw ?? {};
  const details = raw.prompt_tokens_details;
  const reported =
    'cache_read_input_tokens' in raw ||
    (typeof details === 'object' && details !== null && 'cached_tokens' in details);
  return reported ? (usage.inputTokenDetails?.cacheReadTokens ?? null) : null;
}

const ephemeral = { anthropic: { cacheControl: { type: 'ephemeral' as const } } };

/**
 * The messages with a cache breakpoint on the one before the last: the history so far (or this answer's
 * last tool results), which the next request starts with too; the last holds the trailing reminder.
 */
function withCacheBreakpoint(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((message, index) =>
    index === messages.length - 2 ? { ...message, providerOptions: ephemeral } : message,
  );
}

function invalidCallMessage(name: string, error: unknown): string {
  const detail = error instanceof Error ? error.message.split('\n')[0] : '';
  if (/no such tool|NoSuchTool/i.test(`${detail} ${(error as Error | null)?.name ?? ''}`)) {
    return `There is no tool named "${name}".`;
  }
  return `The arguments for ${name} could not be used: ${detail || 'they are not valid JSON'}.`;
}

function toModelMessages(messages: LlmMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === 'user') {
      if (!message.parts) return { role: 'user', content: message.text };
      // Each provider's package writes an image part in its own form: an OpenAI `image_url` data URL, an
      // Anthropic base64 image block, an entry of Ollama's `images`.
      return {
        role: 'user',
        content: message.parts.map((part) =>
          part.type === 'text'
            ? { type: 'text' as const, text: part.text }
            : // As base64: Ollama's package puts the data into `images` as it is given.
              {
                type: 'file' as const,
                data: Buffer.from(part.data).toString('base64'),
                mediaType: part.mediaType,
              },
        ),
      };
    }
    if (message.role === 'assistant') {
      return {
        role: 'assistant',
        content: [
          ...(message.text ? [{ type: 'text' as const, text: message.text }] : []),
          ...message.toolCalls.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.name,
            input: call.input,
          })),
        ],
      };
    }
    return {
      role: 'tool',
      content: message.results.map((result) => ({
        type: 'tool-result' as const,
        toolCallId: result.id,
        toolName: result.name,
        output: result.isError
          ? { type: 'error-text' as const, value: result.output }
          : { type: 'text' as const, value: result.output },
      })),
    };
  });
}
