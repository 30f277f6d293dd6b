import type { Tool } from '../../tools/tool-registry';

/** What a request's system prompt depends on. */
export interface SystemPromptInput {
  vaultName: string;
  /** The tools this request offers, in the registry's order: only theirs is the guidance given. */
  tools: readonly Pick<Tool, 'guidance' | 'documents'>[];
  /** Whether notes are pinned: then citing is asked for even when no tool returns numbered documents. */
  documents: boolean;
  /** Only its day is said: a prompt that changes by the minute could never be reused by the server. */
  now: Date;
  /** The user's agent prompt when it replaces Kasten's own instructions. */
  replacement?: string | null;
}

const citationGuidance = [
  'Notes are given to you as JSON objects with a "document" number. When a sentence of your answer uses a',
  'note, cite it inline with its number in square brackets, like [1] or [1, 2], right after the sentence.',
  'Cite only documents you were given. Refer to notes by their title as [[Title]] when you name them.',
];

/** "+01:00": the offset from UTC of `now`'s time zone. */
function utcOffset(now: Date): string {
  const offset = -now.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `UTC${sign}${hours}:${minutes}`;
}

/** "Thursday, 26 November 2026 (UTC+01:00)": the model has no calendar of its own. */
export function promptDate(now: Date): string {
  const date = now.toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  return `${date} (${utcOffset(now)})`;
}

/** The time of day, for the reminder that closes each request (the system prompt names the day only). */
export function timeReminder(now: Date): string {
  const time = now.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
  return `The time is ${time} (${utcOffset(now)}).`;
}

/**
 * The system prompt of one request: Kasten's instructions (or the user's agent prompt in their place),
 * the date, guidance for the tools offered now and no others, and how to cite when a tool offered returns
 * numbered documents or notes are pinned. It depends on nothing that changes from turn to turn, so that a
 * chat's requests share their start and the server can reuse what it processed. Its wording is versioned
 * with the app.
 */
export function systemPrompt(input: SystemPromptInput): string {
  const instructions = input.replacement?.trim()
    ? [input.replacement.trim()]
    : [
        `You are Kasten, an assistant for the Markdown notes in the vault "${input.vaultName}".`,
        'Answer from the notes; if they do not answer the question, say so.',
      ];
  // Tools may share a line (both write tools, every MCP tool): it is given once.
  const tools = new Set(input.tools.flatMap((tool) => tool.guidance ?? []));
  return [
    ...instructions,
    `Today is ${promptDate(input.now)}.`,
    ...tools,
    ...(input.documents || input.tools.some((tool) => tool.documents !== null) ? citationGuidance : []),
  ].join('\n');
}

/** Appended as the last message after search tools ran, so the answer keeps citing. */
export const citationReminder =
  'Reminder: cite the documents you use inline by their number, like [1] or [2, 3]. Only cite documents you were given.';
