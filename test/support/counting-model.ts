import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatRequest, ReplyScript, ScriptedReply } from './scripted-model-server';

/**
 * A server's own count of a chat request's prompt, as a model server's tokenizer and chat template
 * would make it: not Kasten's count — a template adds its own markers per message, and tool schemas
 * are rendered into the prompt as the server formats them.
 */
export function serverPromptTokens(request: ChatRequest): number {
  let tokens = 2;
  for (const message of request.messages) {
    const content =
      typeof message.content === 'string'
        ? message.content
        : (message.content ?? []).map((part) => part.text ?? '').join('');
    const calls = (message.tool_calls ?? []).map((call) => call.function.name + call.function.arguments);
    tokens += 4 + countTokens(content, { allowedSpecial: 'all' }) + countTokens(calls.join('\n'));
  }
  if (request.tools && request.tools.length > 0) tokens += 4 + countTokens(JSON.stringify(request.tools));
  // Another tokenizer splits prose a little finer than o200k does.
  return Math.ceil(tokens * 1.06);
}

export interface CountingLog {
  /** Each chat request in order: rejected as too long, or answered with its counted prompt size. */
  events: ({ kind: 'rejected'; tokens: number } | { kind: 'answered'; tokens: number; summary: boolean })[];
}

/** Whether a request is the summarizer's (no tools, the summary instructions). */
export function isSummaryRequest(request: ChatRequest): boolean {
  return (request.tools ?? []).length === 0 && JSON.stringify(request.messages).includes('## Goal');
}

/**
 * Wraps a script as a server with a `window`-token context would run it: any prompt over the window is
 * refused exactly as OpenAI refuses it (HTTP 400, `context_length_exceeded`); every answer reports the
 * prompt tokens the server counted.
 */
export function countingServer(window: number, script: ReplyScript, log: CountingLog): ReplyScript {
  return (request, index) => {
    const tokens = serverPromptTokens(request);
    if (tokens > window) {
      log.events.push({ kind: 'rejected', tokens });
      return {
        fault: 'status',
        status: 400,
        body: {
          error: {
            message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        },
      };
    }
    log.events.push({ kind: 'answered', tokens, summary: isSummaryRequest(request) });
    const reply = script(request, index);
    if ('fault' in reply) return reply;
    return { ...reply, usage: { promptTokens: tokens, completionTokens: 20 } } as ScriptedReply;
  };
}
