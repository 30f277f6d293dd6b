import type { ContextKind } from '../context-types';
import type { TokenCounter } from '../count/token-counter';
import { groupDigits } from '../../../shared/group-digits';

/** What a cut text was, for the notice that replaces its middle. */
export interface CutSource {
  kind: ContextKind;
  label: string;
  path?: string;
  /** For tool results: the tool that produced it. */
  toolName?: string;
  /** How the model can read the rest, when the caller said so. */
  readHint?: string;
  /** An old tool result shortened to a stub, rather than an item cut to fit. */
  masked: boolean;
}

/** The line put where a cut removed text; it tells the model how much is missing and how to get it. */
export type CutNotice = (omittedTokens: number, source: CutSource) => string;

export const defaultCutNotice: CutNotice = (omitted, source) => {
  const how = source.readHint ?? (source.toolName ? `call ${source.toolName} again to see all of it` : null);
  return `[… ${groupDigits(omitted)} tokens omitted${how ? `; ${how}` : ''}]`;
};

/** A key of everything a notice may say about its source, so that cuts can be remembered per source. */
export function sourceKey(source: CutSource): string {
  const { kind, label, path, toolName, readHint, masked } = source;
  return [kind, label, path ?? '', toolName ?? '', readHint ?? '', masked ? 'masked' : ''].join('\u0000');
}

export interface Cut {
  text: string;
  tokens: number;
  /** About how many tokens the cut left out (0: the text fitted and is unchanged). */
  omitted: number;
}

/** Two thirds of what is kept is the head: openings say what a text is, endings how it concludes. */
const headShare = 2 / 3;

/**
 * `text` shortened to at most `maxTokens`: its head and tail around a notice, cut at line or word
 * boundaries where one is near. Sizes are found from the text's characters per token and checked by
 * counting the result, so a cut costs a few counts of the kept text, never an encode of the whole.
 */
export function cutHeadTail(
  text: string,
  maxTokens: number,
  counter: TokenCounter,
  notice: (omitted: number) => string,
): Cut {
  const total = counter.text(text);
  if (total <= maxTokens) return { text, tokens: total, omitted: 0 };
  const charsPerToken = text.length / total;
  const room = maxTokens - counter.text(notice(total)) - 2;
  let scale = 1;
  for (let attempt = 0; attempt < 6 && room > 0; attempt++) {
    const keep = room * scale;
    const headEnd = snapEnd(text, Math.floor(keep * headShare * charsPerToken));
    const tailStart = snapStart(text, text.length - Math.floor(keep * (1 - headShare) * charsPerToken));
    if (headEnd <= 0 && tailStart >= text.length) break;
    const omitted = Math.max(1, total - Math.round(keep));
    const result = `${text.slice(0, headEnd)}\n${notice(omitted)}\n${text.slice(tailStart)}`;
    const tokens = counter.text(result);
    if (tokens <= maxTokens) return { text: result, tokens, omitted };
    scale *= (maxTokens / tokens) * 0.95;
  }
  const only = notice(total);
  return { text: only, tokens: counter.text(only), omitted: total };
}

/** `index`, moved back to a line's (or word's) end within the last fifth, never inside a surrogate pair. */
function snapEnd(text: string, index: number): number {
  if (index <= 0) return 0;
  const line = text.lastIndexOf('\n', index);
  if (line > index * 0.8) return line;
  const word = text.lastIndexOf(' ', index);
  if (word > index * 0.9) return word;
  return isLowSurrogate(text, index) ? index - 1 : index;
}

/** `index`, moved forward to the start of a line (or word) within the next fifth of what follows it. */
function snapStart(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const reach = index + (text.length - index) * 0.2;
  const line = text.indexOf('\n', index);
  if (line !== -1 && line < reach) return line + 1;
  const word = text.indexOf(' ', index);
  if (word !== -1 && word < reach) return word + 1;
  return isLowSurrogate(text, index) ? index + 1 : index;
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}
