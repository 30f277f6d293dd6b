import type { LlmMessage } from '../../llm/llm-types';

/** The sections every summary has, in order; the validator looks for them. */
export const summarySections = ['Goal', 'Decisions', 'Facts', 'Open questions', 'Next steps'] as const;

/** What the summarizer is told, before the previous summary and the conversation. */
export function summaryInstructions(maxTokens: number, focus?: string): string {
  const lines = [
    'You compact a conversation between a user and Kasten, an assistant that answers from the user’s',
    'Markdown notes, so that it can go on within a limited context window. Your summary replaces the older',
    'messages in the assistant’s prompt; the user still sees the originals.',
    '',
    'Write it in Markdown with exactly these five sections, in this order, each under a "## " heading:',
    '## Goal: what the user is trying to achieve, in their terms.',
    '## Decisions: what was decided or concluded, and why.',
    '## Facts: what was learned from the notes, each fact with the notes it came from: their document',
    'number in square brackets, like [3], and their title as a wikilink, like [[Title]].',
    '## Open questions: what is still unanswered or unclear.',
    '## Next steps: what the user or the assistant meant to do next.',
    '',
    'Rules:',
    '- Notes appear in tool results as JSON objects with a "document" number. Keep every document number',
    '  exactly as it appears ([3] stays [3]); never renumber notes and never invent numbers.',
    '- When there is a previous summary, merge it: keep what still holds, update what changed, and drop',
    '  nothing that may matter later.',
    '- Write "None." under a section with nothing to say.',
    `- Be brief: at most ${maxTokens} tokens, and shorter than what it replaces.`,
    '- Do not answer the user or continue the conversation; write nothing before the first heading.',
  ];
  if (focus?.trim()) lines.push(`- Pay particular attention to: ${focus.trim()}`);
  return lines.join('\n');
}

export interface SummaryPromptInput {
  previous: string | null;
  transcript: string;
  maxTokens: number;
  focus?: string;
}

/** The whole prompt for one summarization step: instructions, previous summary, the messages to fold in. */
export function buildSummaryPrompt(input: SummaryPromptInput): string {
  const previous = input.previous
    ? `<previous-summary>\n${input.previous}\n</previous-summary>\n\n`
    : 'There is no previous summary.\n\n';
  return (
    `${summaryInstructions(input.maxTokens, input.focus)}\n\n${previous}` +
    `<conversation>\n${input.transcript}\n</conversation>\n\nWrite the summary now.`
  );
}

/** A message as the summarizer reads it; tool results go through `result` (which may shorten them). */
export function transcriptLines(
  message: LlmMessage,
  result: (output: string, name: string) => string,
): string {
  if (message.role === 'user') return `User:\n${message.text}`;
  if (message.role === 'assistant') {
    const calls = message.toolCalls.map(
      (call) => `[Assistant called ${call.name} ${JSON.stringify(call.input)}]`,
    );
    return [message.text.trim() ? `Assistant:\n${message.text}` : '', ...calls].filter(Boolean).join('\n');
  }
  return message.results
    .map(
      (entry) =>
        `[Result of ${entry.name}${entry.isError ? ', an error' : ''}]\n${result(entry.output, entry.name)}`,
    )
    .join('\n');
}
