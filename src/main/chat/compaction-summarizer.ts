import type { ChatModel } from '../llm/llm-types';

/** A summary written by the chat model: one request without tools, its text collected. */
export async function summarize(model: ChatModel, prompt: string, signal: AbortSignal): Promise<string> {
  let text = '';
  for await (const event of model.stream({
    system: 'You summarize conversations faithfully and concisely.',
    messages: [{ role: 'user', text: prompt }],
    tools: [],
    signal,
  })) {
    if (event.type === 'text') text += event.text;
  }
  return text;
}
