import type { LlmMessage } from '../llm/llm-types';

/** Part of every cache key: bump it when the prompt changes so old summaries are made afresh. */
export const summaryPromptVersion = 1;

/** Enough of a note to summarize it while keeping one call cheap on small local models. */
export const maxSummaryInputChars = 12_000;

export const summarySystemPrompt = [
  'Summarize the note in one or two sentences: what it is about and its main point.',
  'Write plain prose in the language of the note, without Markdown, without a preamble',
  'such as "This note", and without inventing anything the note does not say.',
].join(' ');

/** The one user message asking for the summary of a note. */
export function summaryMessages(note: { title: string; content: string }): LlmMessage[] {
  const cut = note.content.length > maxSummaryInputChars;
  // Drop a lone high surrogate so the cut never leaves half an emoji for the provider to reject.
  const head = note.content.slice(0, maxSummaryInputChars).replace(/[\uD800-\uDBFF]$/, '');
  const content = cut ? `${head}\n\n[… the rest of the note is cut]` : note.content;
  return [{ role: 'user', text: `Title: ${note.title}\n\n<note>\n${content}\n</note>` }];
}

/** The model's reply as one line of prose: reasoning blocks some local models emit are dropped. */
export function tidySummary(reply: string): string {
  return reply
    .replace(/<think>[\s\S]*?(<\/think>|$)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
