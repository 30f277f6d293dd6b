import type { ContextOptions } from './context-options';
import type { ContextItemInput, DroppedItem, RequestItem } from './context-types';
import { sourceKey } from './head-tail';
import type { TokenCounter } from './token-counter';

/** What a linked note gets at least when the share is used up: enough for its head and a notice. */
const minimumDirect = 256;

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

type Choice = Pick<PlacedItem, 'text' | 'tokens' | 'form'>;

/**
 * Chooses the rules, pinned notes, references and attachments of a request, by priority: what the
 * user or the session said must be there (`always`, `manual`, attachments), then the notes the user
 * linked (`direct`: whole while they fit the context share, else their stand-in), then what was
 * selected for relevance (`agent`, `retrieved`: best score first, while they fit the share). No item
 * takes more than the item cap: a larger one gives way to its stand-in or is cut head … tail.
 */
export function selectItems(
  items: readonly ContextItemInput[],
  share: number,
  itemCap: number,
  aggressive: boolean,
  counter: TokenCounter,
  cutNotice: ContextOptions['cutNotice'],
): ItemSelection {
  const selection: ItemSelection = { placed: [], dropped: [], tokens: 0 };
  const whole = (item: ContextItemInput): Choice => ({
    text: item.text,
    tokens: counter.text(item.text),
    form: 'whole',
  });
  const fallback = (item: ContextItemInput): Choice | null =>
    item.fallback === undefined
      ? null
      : { text: item.fallback, tokens: counter.text(item.fallback), form: 'fallback' };
  const cut = (item: ContextItemInput, limit: number): Choice | null => {
    if (limit <= 0) return null;
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
  const place = (item: ContextItemInput, choice: Choice | null, reason: string) => {
    const index = items.indexOf(item);
    if (choice) {
      selection.placed.push({ input: item, index, ...choice });
      selection.tokens += choice.tokens;
      return;
    }
    const { kind, label, path, include, score } = item;
    selection.dropped.push({ kind, label, path, include, score, tokens: counter.text(item.text), reason });
  };
  const room = () => Math.min(itemCap, share - selection.tokens);

  for (const item of items) {
    if (item.include !== 'always' && item.include !== 'manual' && item.kind !== 'attachment') continue;
    const choice = fits(whole(item), itemCap) ?? fits(fallback(item), itemCap) ?? cut(item, itemCap);
    place(item, choice, 'the window has no room for it');
  }
  for (const item of items) {
    if (item.include !== 'direct' || item.kind === 'attachment') continue;
    // A note the user linked always says something: whole while it fits the share, else its stand-in,
    // else its head and tail.
    const choice =
      fits(whole(item), room()) ??
      fits(fallback(item), itemCap) ??
      cut(item, Math.max(room(), Math.min(itemCap, minimumDirect)));
    place(item, choice, 'the window has no room for it');
  }
  const relevant = items
    .filter(
      (item) => (item.include === 'agent' || item.include === 'retrieved') && item.kind !== 'attachment',
    )
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  for (const item of relevant) {
    if (aggressive) {
      place(item, null, 'left out of the retry after the model refused a request as too long');
      continue;
    }
    const choice = fits(whole(item), room()) ?? fits(fallback(item), room());
    place(item, choice, 'did not fit the share of the window for notes and rules');
  }
  return selection;
}
