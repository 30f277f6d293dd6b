import { create } from 'zustand';
import type {
  AgentPromptPlacement,
  SessionItemKind,
  SessionItems,
} from '../../../../shared/context-items-domain';
import { describeError, kasten } from '../../api';
import { useChatStore } from '../chat/chat-store';
import { DebouncedLoader } from '../context/debounced-loader';
import { noPendingItems, withPending, type PendingItems } from './session-items-view';

interface ItemsState {
  /** What main says the open chat (or a chat not started yet) holds besides its messages. */
  items: SessionItems | null;
  /** Chosen before the chat started: sent with its first message, then main has them. */
  pending: PendingItems;
  /** The agent prompt written for a chat not started yet; sent with its first message. */
  pendingPrompt: { text: string; placement: AgentPromptPlacement } | null;
  error: string | null;
  /**
   * Adds an item to the open chat (`on`) or takes it out; in a chat not started yet it waits in `pending`.
   * Resolves with main's refusal in a sentence, or null.
   */
  set(kind: SessionItemKind, key: string, on: boolean, title?: string): Promise<string | null>;
  /** The chat's own agent prompt; null: the vault's again. Resolves with the refusal, or null. */
  setPrompt(prompt: { text: string; placement: AgentPromptPlacement } | null): Promise<string | null>;
  /** The first message took the pending items along. */
  clearPending(): void;
}

const openSessionId = (): string | null => useChatStore.getState().session?.id ?? null;

async function loadItems(): Promise<void> {
  const sessionId = openSessionId();
  try {
    const items = await kasten.items.session(sessionId ? { sessionId } : {});
    // An answer for a chat no longer shown is dropped: the change of chat scheduled its own load.
    if (openSessionId() === sessionId) useItemsStore.setState({ items, error: null });
  } catch (error) {
    if (openSessionId() === sessionId) useItemsStore.setState({ error: describeError(error) });
  }
}

const loader = new DebouncedLoader(loadItems);

/** The open chat's rules, tools, pinned notes, files and agent prompt, mirrored from the main process. */
export const useItemsStore = create<ItemsState>((set, get) => ({
  items: null,
  pending: noPendingItems,
  pendingPrompt: null,
  error: null,
  async set(kind, key, on, title) {
    const sessionId = openSessionId();
    if (!sessionId) {
      set({ pending: withPending(get().pending, kind, key, on, title) });
      return null;
    }
    try {
      const items = await kasten.items.set({ sessionId, kind, key, on });
      if (openSessionId() === sessionId) set({ items, error: null });
      return null;
    } catch (error) {
      return describeError(error);
    }
  },
  async setPrompt(prompt) {
    const sessionId = openSessionId();
    if (!sessionId) {
      set({ pendingPrompt: prompt });
      return null;
    }
    try {
      const items = await kasten.items.prompt({ sessionId, prompt });
      if (openSessionId() === sessionId) set({ items, error: null });
      return null;
    } catch (error) {
      return describeError(error);
    }
  },
  clearPending() {
    set({ pending: noPendingItems, pendingPrompt: null });
  },
}));

/** Whether the note is pinned to the open chat (or will be, with its first message). */
export function usePinned(path: string | null): boolean {
  return useItemsStore(
    (state) =>
      path !== null &&
      (state.items?.pinned.some((note) => note.path === path) === true ||
        state.pending.pinned.some((note) => note.path === path)),
  );
}

const afterEventMs = 100;

let subscribed = false;
/**
 * Keeps the items on the open chat: reloads when another chat opens, when a message brought files, when
 * main says items changed (a rule edited, a pin that followed a rename, a server's state), when a pinned
 * note changed on disk, and when an index pass ends (rules are notes: the first pass finds them).
 */
export function startItemsSync(): void {
  if (subscribed) return;
  subscribed = true;
  kasten.items.onChanged(({ sessionId }) => {
    if (sessionId === null || sessionId === openSessionId()) loader.schedule(afterEventMs);
  });
  // Main says so when a pin follows a rename, not when a pinned note is edited or deleted: its count or
  // its state changed all the same.
  kasten.index.onChanged((change) => {
    const pinned = useItemsStore.getState().items?.pinned ?? [];
    if (pinned.some((note) => change.paths.includes(note.path))) loader.schedule(afterEventMs);
  });
  let indexing = false;
  kasten.index.onProgress((progress) => {
    if (indexing && progress.state !== 'indexing') loader.schedule(afterEventMs);
    indexing = progress.state === 'indexing';
  });
  kasten.vault.onChanged((change) => {
    if (change.reason !== 'opened') return;
    useItemsStore.setState({ pending: noPendingItems });
    loader.schedule(0);
  });
  const questions = (messages: { role: string }[] = []) =>
    messages.filter((message) => message.role === 'user').length;
  useChatStore.subscribe((state, previous) => {
    const id = state.session?.id ?? null;
    if (id !== (previous.session?.id ?? null)) {
      // Pending items belong to the chat not started yet; the first message took them into its chat.
      if (id !== null) useItemsStore.setState({ pending: noPendingItems });
      loader.schedule(0);
    } else if (questions(state.session?.messages) !== questions(previous.session?.messages)) {
      loader.schedule(afterEventMs);
    }
  });
  loader.schedule(0);
}
