import type { ChatModel, LlmUsage } from '../llm/llm-types';

/**
 * A summary written by the chat model: one request without tools, its text collected. What the server
 * reports the call used goes to `onUsage`, for the answer that waited for it to count and price it.
 */
export async function summarize(
  model: ChatModel,
  prompt: string,
  signal: AbortSignal,
  onUsage?: (usage: LlmUsage) => void,
): Promise<string> {
  let text = '';
  for await (const event of model.stream({
    system: 'You summarize conversations faithfully and concisely.',
    messages: [{ role: 'user', text: prompt }],
    tools: [],
    signal,
  })) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'finish') onUsage?.(event.usage);
  }
  return text;
}
