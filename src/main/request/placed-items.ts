import type { ContextOptions } from './context-options';
import type { ContextItemInput, DroppedItem, RequestItem } from './context-types';
import { sourceKey } from './head-tail';
import { choosePassages } from './sources/pinned-passages';
import type { TokenCounter } from './count/token-counter';

/** What a linked note or a rule gets at least when the share is used up: enough for its head and a notice. */
const minimumCut = 256;

/** An item as it goes into the request. */
export interface PlacedItem {
  input: ContextItemInput;
  /** Its position among the offered items: items of a kind keep the caller's order. */
  index: number;
  text: string;
  tokens: number;
  form: RequestItem['form'];
}

export interface ItemSelection {
  placed: PlacedItem[];
  dropped: DroppedItem[];
  tokens: number;
}

/** Local tokens the items of one request may take. */
export interface SelectionLimits {
  /** Rules, references and items chosen for relevance (the context share less the fixed tool schemas). */
  share: number;
  /** The most one item may take (pinned notes have their own bound). */
  itemCap: number;
  /** Pinned notes together: whole while they fit it, else their most relevant passages. */
  pinned: number;
  /** Every item together: the usable window less what every request must hold, so items never overflow it. */
  free: number;
  /** The retry after a context-length error: nothing chosen for relevance. */
  aggressive: boolean;
}

type Choice = Pick<PlacedItem, 'text' | 'tokens' | 'form'>;

export const overBudget = 'over budget: the share of the window for rules, tools and notes is used up';

/**
 * Chooses the attachments, rules, pinned notes, references and relevant items of a request, by priority:
 * the current message's attachments, then what the user or the settings said must be there (`always`,
 * `manual` rules; pinned notes whole while they fit their bound, else their most relevant passages),
 * then the notes the user linked (`direct`: whole while they fit the share, else their stand-in), then
 * what was selected for relevance (`agent`, `retrieved`: best score first, while they fit the share).
 * Nothing takes more than the item cap, and all of it together never more than `free`.
 */
export function selectItems(
  items: readonly ContextItemInput[],
  limits: SelectionLimits,
  counter: TokenCounter,
  cutNotice: ContextOptions['cutNotice'],
): ItemSelection {
  const selection: ItemSelection = { placed: [], dropped: [], tokens: 0 };
  let shareUsed = 0;
  let pinnedUsed = 0;
  const tokensOf = (item: ContextItemInput, text: string) =>
    item.tool ? counter.tool(item.tool) : counter.text(text);
  const whole = (item: ContextItemInput): Choice => ({
    text: item.text,
    tokens: tokensOf(item, item.text),
    form: 'whole',
  });
  const fallback = (item: ContextItemInput): Choice | null =>
    item.fallback === undefined
      ? null
      : { text: item.fallback, tokens: counter.text(item.fallback), form: 'fallback' };
  const cut = (item: ContextItemInput, limit: number): Choice | null => {
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
  };
  const fits = (choice: Choice | null, limit: number) => (choice && choice.tokens <= limit ? choice : null);
  const free = () => limits.free - selection.tokens;
  const room = () => Math.min(limits.itemCap, limits.share - shareUsed, free());
  const place = (item: ContextItemInput, choice: Choice | null, reason: string, fromShare = true) => {
    if (choice) {
      selection.placed.push({ input: item, index: items.indexOf(item), ...choice });
      selection.tokens += choice.tokens;
      if (fromShare) shareUsed += choice.tokens;
      return choice;
    }
    const { kind, label, path, include, score } = item;
    selection.dropped.push({ kind, label, path, include, score, tokens: tokensOf(item, item.text), reason });
    return null;
  };
  const of = (predicate: (item: ContextItemInput) => boolean) => items.filter(predicate);

  // A file sent with the message goes with it; one too large for this request gives way to its stub.
  for (const item of of((item) => item.kind === 'attachment')) {
    const limit = Math.min(limits.itemCap, free());
    const choice = limits.aggressive ? null : fits(whole(item), limit);
    place(item, choice ?? fits(fallback(item), free()), 'the window has no room for it', false);
  }
  for (const item of of((item) => item.kind === 'rule' && isChosen(item))) {
    place(item, fits(whole(item), room()) ?? cut(item, room()), overBudget);
  }
  for (const item of of((item) => item.kind === 'pinned')) {
    const limit = Math.min(limits.pinned - pinnedUsed, free());
    const choice = fits(whole(item), limit) ?? passages(item, limit, counter) ?? cut(item, limit);
    const placed = place(item, choice, 'over budget: pinned notes may take 60% of the usable window', false);
    pinnedUsed += placed?.tokens ?? 0;
  }
  for (const item of of((item) => item.include === 'direct' && item.kind === 'reference')) {
    // A note the user linked always says something: whole while it fits the share, else its stand-in,
    // else its head and tail.
    const choice =
      fits(whole(item), room()) ??
      fits(fallback(item), Math.min(limits.itemCap, free())) ??
      cut(item, Math.min(free(), Math.max(room(), Math.min(limits.itemCap, minimumCut))));
    place(item, choice, 'the window has no room for it');
  }
  const relevant = of((item) => item.include === 'agent' || item.include === 'retrieved')
    .filter((item) => item.kind !== 'attachment' && item.kind !== 'pinned')
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  for (const item of relevant) {
    if (limits.aggressive) {
      place(item, null, 'left out of the retry after the model refused a request as too long');
      continue;
    }
    place(item, fits(whole(item), room()) ?? fits(fallback(item), room()), overBudget);
  }
  return selection;
}

/** Rules in every request, or added to the chat by the user. */
function isChosen(item: ContextItemInput): boolean {
  return item.include === 'always' || item.include === 'manual';
}

/** A pinned note too long to give whole: its passages most relevant to the question that fit `limit`. */
function passages(item: ContextItemInput, limit: number, counter: TokenCounter): Choice | null {
  if (!item.passages || !item.excerpt) return null;
  const text = choosePassages(item.passages, item.excerpt, limit, counter);
  return text === null ? null : { text, tokens: counter.text(text), form: 'chunks' };
}
