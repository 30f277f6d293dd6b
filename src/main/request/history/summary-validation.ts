import { citedNumbers, parseCitations } from '../../../shared/chat/citations';
import { summarySections } from './summary-prompt';
import type { TokenCounter } from '../count/token-counter';

export type SummaryCheck = { ok: true; text: string; tokens: number } | { ok: false; reason: string };

export interface SummaryCheckInput {
  /** What the summarizer was given to summarize: the previous summary and the conversation. */
  source: string;
  /** Local tokens of what the summary replaces in the prompt. */
  replacedTokens: number;
  maxTokens: number;
  counter: TokenCounter;
}

/** A summary may run over its asked length a little; beyond this it crowds out the conversation. */
const lengthTolerance = 1.5;

/**
 * The summary text without what models wrap around it: a reasoning model's `<think>` block (Qwen 3,
 * DeepSeek R1 on Ollama), a code fence around the whole answer, a preamble before the first section.
 */
export function cleanSummary(raw: string): string {
  let text = raw.replace(/<think>[\s\S]*?<\/think>/gi, '');
  if (/^\s*<think>/i.test(text)) return '';
  text = text.trim();
  const fenced = /^```(?:markdown|md)?\s*\n([\s\S]*?)\n```$/i.exec(text);
  if (fenced) text = fenced[1]!.trim();
  const firstSection = text.search(sectionPattern(summarySections[0]));
  if (firstSection > 0) text = text.slice(firstSection).trim();
  return text;
}

/**
 * Accepts a summary only when it can stand in for what it replaces: it has the five sections (one may
 * be missing: small models drop an empty one), cites no document number the conversation does not
 * have (a renumbered citation would point at the wrong note), and is smaller than what it replaces.
 */
export function checkSummary(text: string, input: SummaryCheckInput): SummaryCheck {
  if (text.trim() === '') return { ok: false, reason: 'the summarizer returned no summary' };
  const missing = summarySections.filter((section) => !sectionPattern(section).test(text));
  if (missing.length > 1) {
    return { ok: false, reason: `the summary lacks the sections ${missing.join(', ')}` };
  }
  const known = new Set(documentNumbers(input.source));
  const invented = citedNumbers(parseCitations(text, () => true)).filter((number) => !known.has(number));
  if (invented.length > 0) {
    const list = invented.map((number) => `[${number}]`).join(', ');
    return { ok: false, reason: `the summary cites ${list}, which no note in the conversation has` };
  }
  const tokens = input.counter.text(text);
  if (tokens >= input.replacedTokens) {
    return {
      ok: false,
      reason: `the summary (${tokens} tokens) is not smaller than what it replaces (${input.replacedTokens})`,
    };
  }
  if (tokens > input.maxTokens * lengthTolerance) {
    return {
      ok: false,
      reason: `the summary (${tokens} tokens) is far over its length of ${input.maxTokens}`,
    };
  }
  return { ok: true, text, tokens };
}

/** Document numbers the text gives notes: JSON `"document": N` in tool results and citations `[N]`. */
function documentNumbers(text: string): number[] {
  const numbers = citedNumbers(parseCitations(text, () => true));
  for (const match of text.matchAll(/"document"\s*:\s*(\d+)/g)) numbers.push(Number(match[1]));
  return numbers;
}

/** A section heading: `## Goal`, `**Goal**`, `Goal:`, singular or plural, at the start of a line. */
function sectionPattern(section: string): RegExp {
  const word = section.toLowerCase().replace(/s$/, '');
  return new RegExp(`^[ \\t]{0,3}(?:#{1,6}[ \\t]*|\\*\\*)?[ \\t]*${word}s?\\b`, 'im');
}
