import type {
  PinnedNote,
  SendInput,
  SessionItemKind,
  SessionItems,
} from '../../../../shared/context-items-domain';

/** Items chosen for a chat not started yet: sent with its first message (`chat:send` `items`). */
export interface PendingItems {
  rules: string[];
  tools: string[];
  /** Notes to pin, with their titles for the panel until main has counted them. */
  pinned: { path: string; title: string }[];
}

export const noPendingItems: PendingItems = { rules: [], tools: [], pinned: [] };

/** A pinned note as the panel lists it; `pending`: chosen before the chat started. */
export type PanelPinned = PinnedNote & { pending: boolean };

/** What the panel shows: main's items, with those chosen for a chat not started yet marked active. */
export interface PanelItems extends Omit<SessionItems, 'pinned'> {
  pinned: PanelPinned[];
}

/**
 * Main's view of the chat's items, with the pending ones added (rules and tools active, notes pinned).
 * A pinned note shows what the context meter's reading (`meter`, when there is one) gives it, so that
 * the tab, the meter and "Context used" say the same.
 */
export function panelItems(
  items: SessionItems,
  pending: PendingItems,
  meter: readonly { path: string; tokens: number }[] | null = null,
): PanelItems {
  const pinnedPaths = new Set(items.pinned.map((note) => note.path));
  const counted = new Map(meter?.map((entry) => [entry.path, entry.tokens]));
  const tokens = (path: string, fallback: number | null) =>
    meter === null ? fallback : (counted.get(path) ?? null);
  return {
    ...items,
    rules: items.rules.map((rule) => (pending.rules.includes(rule.path) ? { ...rule, active: true } : rule)),
    tools: items.tools.map((tool) => (pending.tools.includes(tool.name) ? { ...tool, active: true } : tool)),
    pinned: [
      ...items.pinned.map((note) => ({
        ...note,
        tokens: note.state === 'gone' ? null : tokens(note.path, note.tokens),
        pending: false,
      })),
      ...pending.pinned
        .filter((note) => !pinnedPaths.has(note.path))
        .map((note) => ({
          path: note.path,
          title: note.title,
          state: 'present' as const,
          previousPath: null,
          tokens: tokens(note.path, null),
          pending: true,
        })),
    ],
  };
}

/** Pending items with one added (`on`) or taken out; `key` is a rule's path, a tool's name, a note's path. */
export function withPending(
  pending: PendingItems,
  kind: SessionItemKind,
  key: string,
  on: boolean,
  title = key,
): PendingItems {
  if (kind === 'pinned') {
    const others = pending.pinned.filter((note) => note.path !== key);
    return { ...pending, pinned: on ? [...others, { path: key, title }] : others };
  }
  const field = kind === 'rule' ? 'rules' : 'tools';
  const others = pending[field].filter((entry) => entry !== key);
  return { ...pending, [field]: on ? [...others, key] : others };
}

/** What `chat:send` takes for the pending items; undefined when there are none. */
export function sendItems(pending: PendingItems): SendInput['items'] {
  const { rules, tools, pinned } = pending;
  if (rules.length + tools.length + pinned.length === 0) return undefined;
  return {
    ...(rules.length ? { rules } : {}),
    ...(tools.length ? { tools } : {}),
    ...(pinned.length ? { pinned: pinned.map((note) => note.path) } : {}),
  };
}

/** How many things the user put in this chat (pins, manual rules and tools, files): the tab's count. */
export function addedCount(items: PanelItems): number {
  const chosen = (entry: { include: string; active: boolean }) => entry.active && entry.include !== 'always';
  return (
    items.pinned.length +
    items.rules.filter(chosen).length +
    items.tools.filter(chosen).length +
    items.attachments.length
  );
}
