import type { ContextItemInput, SentItem } from '../context-types';
import type { ItemChoice, ItemForms } from './item-forms';

/** What the reasons call the room the linked notes share. */
const namedBound = 'for the notes named in this message';

/** Why a smaller form went in: the one before it did not fit. */
const tooLittleFor: Partial<Record<ItemChoice['form'], string>> = {
  fallback: 'too little for its head and tail',
  title: 'too little for its summary',
};

export interface LinkedNoteLimits {
  /**
   * Local tokens the notes may take together: what the request has left once what it must hold is
   * counted. Older history is not counted: it gives way to them.
   */
  room: number;
  /** The most one note may take. */
  itemCap: number;
  /** The retry after a context-length error: notes are fitted afresh, not as they were sent. */
  aggressive: boolean;
}

/**
 * Fits the notes the user linked in the latest message, once, in the budget's unit. A note the
 * answer's first request already gave is given so again while it fits. The others share the room
 * fairly: each note that fits an equal share whole is whole, and the rest divide what is left, none
 * taking more than the item cap. A note too big for its share is cut to its head and tail within it,
 * else given as its summary, else as its title; each form below whole says why. Null: not even the
 * title fits.
 */
export function fitLinkedNotes(
  notes: readonly ContextItemInput[],
  limits: LinkedNoteLimits,
  forms: ItemForms,
  sent: ReadonlyMap<ContextItemInput, SentItem> | undefined,
  count: (text: string) => number,
): Map<ContextItemInput, ItemChoice | null> {
  const chosen = new Map<ContextItemInput, ItemChoice | null>();
  let left = limits.room;
  const take = (note: ContextItemInput, choice: ItemChoice | null) => {
    chosen.set(note, choice);
    left -= choice?.tokens ?? 0;
  };
  for (const note of notes) {
    const before = limits.aggressive ? undefined : sent?.get(note);
    const replayed = before && { ...before, tokens: count(before.text) };
    if (replayed && replayed.tokens <= left) take(note, replayed);
  }
  let pending = notes.filter((note) => !chosen.has(note));
  const wholes = new Map(pending.map((note) => [note, forms.whole(note)]));
  for (;;) {
    const share = Math.min(limits.itemCap, Math.floor(left / Math.max(1, pending.length)));
    const fitting = pending.filter((note) => wholes.get(note)!.tokens <= share);
    if (fitting.length === 0) break;
    for (const note of fitting) take(note, wholes.get(note)!);
    pending = pending.filter((note) => !chosen.has(note));
  }
  pending.forEach((note, index) => {
    const share = Math.max(0, Math.min(limits.itemCap, Math.floor(left / (pending.length - index))));
    const within = (choice: ItemChoice | null, limit = share) => {
      if (!choice || choice.tokens > limit) return null;
      const explained = forms.explained(choice, note, share, namedBound);
      const more = tooLittleFor[choice.form];
      return more ? { ...explained, reason: `${explained.reason}, ${more}` } : explained;
    };
    // A linked note always says something: its title goes in whatever the share, while the room holds it.
    take(
      note,
      within(forms.cut(note, share)) ?? within(forms.fallback(note)) ?? within(forms.stub(note), left),
    );
  });
  return new Map(notes.map((note) => [note, chosen.get(note) ?? null]));
}
