import type { ContextOptions } from '../context-options';
import type { ContextItemInput, DroppedItem, SentItem } from '../context-types';
import { itemForms, type ItemChoice } from './item-forms';
import { fitLinkedNotes } from './linked-note-fit';
import type { TokenCounter } from '../count/token-counter';

/** An item as it goes into the request. */
export interface PlacedItem extends ItemChoice {
  input: ContextItemInput;
  /** Its position among the offered items: items of a kind keep the caller's order. */
  index: number;
}

export interface ItemSelection {
  placed: PlacedItem[];
  dropped: DroppedItem[];
  tokens: number;
}

/** Local tokens the items of one request may take. */
export interface SelectionLimits {
  /** Rules and items chosen for relevance (the context share less the fixed tool schemas). */
  share: number;
  /** The most one item may take (pinned notes have their own bound). */
  itemCap: number;
  /** Pinned notes together: whole while they fit it, else their most relevant passages. */
  pinned: number;
  /** Every item together: the usable window less what every request must hold, so items never overflow it. */
  free: number;
  /** The retry after a context-length error: nothing chosen for relevance. */
  aggressive: boolean;
  /** Provider tokens per local token: the reasons give the figures the user sees. */
  ratio: number;
  /** The linked notes as the answer's first request gave them (see `AssembleInput.sent`). */
  sent?: ReadonlyMap<ContextItemInput, SentItem>;
}

export const overBudget = 'over budget: the share of the window for rules, tools and notes is used up';

const shareBound = 'in the share for rules, tools and notes';
const noRoom = 'the window has no room for it';

/**
 * Chooses the attachments, rules, pinned notes, references and relevant items of a request, by priority:
 * the current message's attachments, then what the user or the settings said must be there (`always`,
 * `manual` rules; pinned notes whole while they fit their bound, else their most relevant passages),
 * then the notes the user linked (`direct`: see `fitLinkedNotes`), then what was selected for relevance
 * (`agent`, `retrieved`: best score first, while they fit the share). Nothing takes more than the item
 * cap, and all of it together never more than `free`. The history is planned after the items, with
 * what they leave: older turns give way to what the user named in this message.
 */
export function selectItems(
  items: readonly ContextItemInput[],
  limits: SelectionLimits,
  counter: TokenCounter,
  cutNotice: ContextOptions['cutNotice'],
): ItemSelection {
  const selection: ItemSelection = { placed: [], dropped: [], tokens: 0 };
  const forms = itemForms(counter, cutNotice, limits);
  let shareUsed = 0;
  let pinnedUsed = 0;
  const fits = (choice: ItemChoice | null, limit: number) =>
    choice && choice.tokens <= limit ? choice : null;
  const free = () => limits.free - selection.tokens;
  const room = () => Math.min(limits.itemCap, limits.share - shareUsed, free());
  const place = (item: ContextItemInput, choice: ItemChoice | null, reason: string, fromShare = true) => {
    if (choice) {
      selection.placed.push({ input: item, index: items.indexOf(item), ...choice });
      selection.tokens += choice.tokens;
      if (fromShare) shareUsed += choice.tokens;
      return choice;
    }
    const { kind, label, path, include, score } = item;
    const tokens = forms.whole(item).tokens;
    selection.dropped.push({ kind, label, path, include, score, tokens, reason });
    return null;
  };
  const of = (predicate: (item: ContextItemInput) => boolean) => items.filter(predicate);

  // A file sent with the message goes with it; one too large for this request gives way to its stub.
  for (const item of of((item) => item.kind === 'attachment')) {
    const limit = Math.min(limits.itemCap, free());
    const whole = limits.aggressive ? null : fits(forms.whole(item), limit);
    place(item, whole ?? fits(forms.fallback(item), free()), noRoom, false);
  }
  for (const item of of((item) => item.kind === 'rule' && isChosen(item))) {
    const limit = room();
    const cut = forms.cut(item, limit);
    place(
      item,
      fits(forms.whole(item), limit) ?? (cut && forms.explained(cut, item, limit, shareBound)),
      overBudget,
    );
  }
  for (const item of of((item) => item.kind === 'pinned')) {
    const limit = Math.min(limits.pinned - pinnedUsed, free());
    const smaller = forms.passages(item, limit) ?? forms.cut(item, limit);
    const choice =
      fits(forms.whole(item), limit) ??
      (smaller && forms.explained(smaller, item, limit, 'for pinned notes'));
    const placed = place(item, choice, 'over budget: pinned notes may take 60% of the usable window', false);
    pinnedUsed += placed?.tokens ?? 0;
  }
  const linked = of((item) => item.include === 'direct' && item.kind === 'reference');
  const fitted = fitLinkedNotes(
    linked,
    { room: free(), itemCap: limits.itemCap, aggressive: limits.aggressive },
    forms,
    limits.sent,
    (text) => counter.text(text),
  );
  for (const [item, choice] of fitted) place(item, choice, noRoom);
  const relevant = of((item) => item.include === 'agent' || item.include === 'retrieved')
    .filter((item) => item.kind !== 'attachment' && item.kind !== 'pinned')
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  for (const item of relevant) {
    if (limits.aggressive) {
      place(item, null, 'left out of the retry after the model refused a request as too long');
      continue;
    }
    const limit = room();
    const fallback = fits(forms.fallback(item), limit);
    place(
      item,
      fits(forms.whole(item), limit) ?? (fallback && forms.explained(fallback, item, limit, shareBound)),
      overBudget,
    );
  }
  return selection;
}

/** Rules in every request, or added to the chat by the user. */
function isChosen(item: ContextItemInput): boolean {
  return item.include === 'always' || item.include === 'manual';
}
