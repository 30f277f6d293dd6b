import { useMemo, useState, type KeyboardEvent } from 'react';
import { useItemsStore } from '../items/items-store';
import { panelItems } from '../items/session-items-view';
import { addMention, type MentionNotice } from './add-mention';
import { MentionRow } from './MentionRow';
import { mentionBefore, mentionCandidates, mentionSuggestions, withoutMention } from './mention-suggestions';
import { linkOpenBefore, useLinkCompletion } from './use-link-completion';
import { useNoteTitles } from './use-note-titles';
import { slashQuery } from '../prompts/slash-commands';
import { useSlashCompletion } from '../prompts/use-slash-completion';

/**
 * The completion open at the caret: `[[` offers notes, headings and blocks to link (see
 * useLinkCompletion); `@` offers notes, rules and tools to add to the chat; `/` at the start offers
 * the saved prompts and `/compact` (see useSlashCompletion). Arrows move, Enter or Tab
 * chooses, Escape closes it for this `[[` or `@`.
 */
export function useCompletion(
  text: string,
  caret: number,
  edit: (text: string, caret: number) => void,
  notify: (notice: MentionNotice) => void,
) {
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const linkOpen = linkOpenBefore(text, caret);
  const mention = linkOpen ? null : mentionBefore(text, caret);
  const titles = useNoteTitles(linkOpen || mention !== null);
  const link = useLinkCompletion(text, caret, titles, edit);
  const slash = useSlashCompletion(text, caret, edit, notify);
  const items = useItemsStore((state) => state.items);
  const pending = useItemsStore((state) => state.pending);
  // Without main's items (not loaded, or refused) notes can still be pinned.
  const candidates = useMemo(
    () =>
      titles
        ? mentionCandidates(
            items
              ? panelItems(items, pending)
              : { rules: [], tools: [], rulesFolder: '', pinned: pending.pinned },
            titles,
          )
        : [],
    [items, pending, titles],
  );
  const start = link?.start ?? mention?.start ?? slash?.start ?? null;
  const open = start !== null && dismissed !== start;

  const mentions = open && mention ? mentionSuggestions(candidates, mention.query) : [];
  const chooseMention = (index: number) => {
    const candidate = mentions[index];
    if (!mention || !candidate) return;
    const rest = withoutMention(text, mention.start, caret);
    edit(rest.text, rest.caret);
    void addMention(candidate).then(notify);
  };

  const rows = !open
    ? []
    : link
      ? link.rows
      : mention
        ? mentions.map((candidate) => ({
            key: `${candidate.kind}:${candidate.key}`,
            content: <MentionRow candidate={candidate} />,
          }))
        : (slash?.rows ?? []);
  const current = Math.min(active, Math.max(rows.length - 1, 0));
  const choose = (index: number) =>
    link ? link.choose(index) : mention ? chooseMention(index) : slash?.choose(index);

  return {
    label: link ? link.label : mention ? 'Add to this chat' : (slash?.label ?? ''),
    rows,
    active: current,
    choose,
    /** After typing: back to the first row; once the `[[` or `@` is gone, a new one at its place opens. */
    typed(next: string, at: number) {
      setActive(0);
      if (!linkOpenBefore(next, at) && !mentionBefore(next, at) && slashQuery(next, at) === null)
        setDismissed(null);
    },
    /** Handles the key when the list is open; true when it did. */
    onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
      if (rows.length === 0) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current + step + rows.length) % rows.length);
        return true;
      }
      if (event.key === 'Enter' && !link && !mention && slash?.typedWhole(current)) return false;
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(current);
        return true;
      }
      if (event.key === 'Escape') {
        // The list closes; the Escape goes no further (an open drawer or dialog stays).
        event.preventDefault();
        setDismissed(start);
        return true;
      }
      return false;
    },
  };
}
