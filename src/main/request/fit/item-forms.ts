import type { ContextOptions } from '../context-options';
import type { ContextItemInput, RequestItem } from '../context-types';
import { calibrated } from '../count/calibration';
import type { TokenCounter } from '../count/token-counter';
import { groupDigits } from '../../../shared/group-digits';
import { sourceKey } from './head-tail';
import { choosePassages } from '../sources/pinned-passages';

/** A cut smaller than this (or than the item cap, when that is smaller) says too little to be worth it. */
const minimumCut = 256;

/** One form of an item: the text the model is given, its local tokens, and why it is less than whole. */
export interface ItemChoice {
  text: string;
  tokens: number;
  form: RequestItem['form'];
  reason?: string;
}

/** The forms an item can take in a request, from whole down to its title; each less-than-whole says why. */
export interface ItemForms {
  whole(item: ContextItemInput): ItemChoice;
  /** Head and tail within `limit`; null when `limit` is too small for a cut worth sending. */
  cut(item: ContextItemInput, limit: number): ItemChoice | null;
  fallback(item: ContextItemInput): ItemChoice | null;
  stub(item: ContextItemInput): ItemChoice | null;
  /** A pinned note's passages most relevant to the question that fit `limit`. */
  passages(item: ContextItemInput, limit: number): ItemChoice | null;
  /**
   * Why `choice` went in rather than the whole item: "cut to head and tail: 13,712 tokens, 3,104
   * available for the notes named in this message". `available` is what its bound left; `bound` names
   * that bound, unless the item cap was the tighter one.
   */
  explained(choice: ItemChoice, item: ContextItemInput, available: number, bound: string): ItemChoice;
}

const formWords: Record<RequestItem['form'], string> = {
  whole: 'whole',
  cut: 'cut to head and tail',
  fallback: 'summary only',
  masked: 'masked',
  chunks: 'its passages most relevant to the question',
  title: 'title only',
};

/**
 * The forms of items counted with `counter`. Reasons give figures in the provider's tokens (local
 * tokens × `ratio`), the unit of every figure the user sees.
 */
export function itemForms(
  counter: TokenCounter,
  cutNotice: ContextOptions['cutNotice'],
  limits: { itemCap: number; ratio: number },
): ItemForms {
  const tokensOf = (item: ContextItemInput, text: string) =>
    item.tool ? counter.tool(item.tool) : counter.text(text);
  const shown = (tokens: number) => groupDigits(calibrated(tokens, limits.ratio));
  const standIn = (text: string | undefined, form: RequestItem['form']): ItemChoice | null =>
    text === undefined ? null : { text, tokens: counter.text(text), form };
  return {
    whole: (item) => ({ text: item.text, tokens: tokensOf(item, item.text), form: 'whole' }),
    cut: (item, limit) => {
      if (limit < Math.min(minimumCut, limits.itemCap) || item.tool) return null;
      const source = {
        kind: item.kind,
        label: item.label,
        path: item.path,
        readHint: item.readHint,
        masked: false,
      };
      const result = counter.cut(item.text, limit, (n) => cutNotice(n, source), sourceKey(source));
      return { text: result.text, tokens: result.tokens, form: result.omitted > 0 ? 'cut' : 'whole' };
    },
    fallback: (item) => standIn(item.fallback, 'fallback'),
    stub: (item) => standIn(item.stub, 'title'),
    passages: (item, limit) => {
      if (!item.passages || !item.excerpt) return null;
      const text = choosePassages(item.passages, item.excerpt, limit, counter);
      return text === null ? null : { text, tokens: counter.text(text), form: 'chunks' };
    },
    explained: (choice, item, available, bound) => {
      if (choice.form === 'whole') return choice;
      const where = available >= limits.itemCap ? ' (the most one item may take)' : bound ? ` ${bound}` : '';
      const figures = `${shown(tokensOf(item, item.text))} tokens, ${shown(Math.max(0, available))} available`;
      return { ...choice, reason: `${formWords[choice.form]}: ${figures}${where}` };
    },
  };
}
