import { create } from 'zustand';
import type {
  ContextSettings,
  ContextStatus,
  ContextStrategy,
  SessionCompaction,
} from '../../../../shared/context-domain';
import { describeError, kasten } from '../../api';
import { useChatStore } from '../chat/chat-store';
import { useItemsStore } from '../items/items-store';
import { useNoteStore } from '../notes/note-store';
import { savedPromptCall } from '../prompts/saved-prompt-call';
import { sendItems } from '../items/session-items-view';
import { useSettingsStore } from '../settings/settings-store';
import { compactCommand } from './compact-command';
import { DebouncedLoader } from './debounced-loader';
import { exactTokens } from './token-format';

/** What `/compact` or "Compact now" came to, shown in the chat until the next message. */
export interface CompactResult {
  sessionId: string | null;
  /** The last message when it was asked; a later message ends the notice. */
  afterMessageId: number | null;
  text: string;
  failed: boolean;
}

interface ContextState {
  /** What the next request of the open session (or a new chat) would hold, the draft included. */
  status: ContextStatus | null;
  /** The message being typed; the status counts it. */
  draft: string;
  /** Files read for the message being typed (their tokens): the status counts them too. */
  attachments: string[];
  setAttachments(tokens: string[]): void;
  error: string | null;
  compacting: boolean;
  compactResult: CompactResult | null;
  setDraft(text: string): void;
  compact(focus: string | null): Promise<void>;
  setStrategy(strategy: ContextStrategy): Promise<void>;
  /** Settings → Context: new chats' strategy, shares, threshold and verbatim tail. */
  settings: ContextSettings | null;
  settingsError: string | null;
  loadSettings(): Promise<void>;
  saveSettings(settings: ContextSettings): Promise<boolean>;
}

/** After an event: events come in bursts (a request sent, its tool results), one reload serves them. */
const afterEventMs = 100;
/** While typing: the estimate follows the draft once the typing pauses. */
const afterTypingMs = 250;
const maxDraft = 200_000;

const openSessionId = (): string | null => useChatStore.getState().session?.id ?? null;

/** The draft as the main process should count it: a `/compact` command is not a message. */
const countedDraft = (draft: string): string =>
  draft.trim() === '' || compactCommand(draft) ? '' : draft.slice(0, maxDraft);

async function loadStatus(): Promise<void> {
  const sessionId = openSessionId();
  const draft = countedDraft(useContextStore.getState().draft);
  const current = () =>
    openSessionId() === sessionId && countedDraft(useContextStore.getState().draft) === draft;
  try {
    const { attachments } = useContextStore.getState();
    const items = sessionId ? undefined : sendItems(useItemsStore.getState().pending);
    // A `/Name` draft counts as the saved prompt's message: its filled words and the open note it brings.
    const prompt = draft ? await savedPromptCall(draft, useNoteStore.getState().path) : undefined;
    const status = await kasten.context.status({
      ...(sessionId ? { sessionId } : {}),
      ...(draft ? { draft } : {}),
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(items ? { items } : {}),
      ...(prompt ? { prompt } : {}),
    });
    // A status for another session or draft is dropped: the change that made it stale scheduled a reload.
    if (current()) useContextStore.setState({ status, error: null });
  } catch (error) {
    if (current()) useContextStore.setState({ error: describeError(error) });
  }
}

const loader = new DebouncedLoader(loadStatus);

function compactedText(compaction: SessionCompaction | null, notice: string | null): string {
  const parts: string[] = [];
  if (compaction) {
    const count = compaction.coveredIds.length;
    parts.push(
      `Summarized ${count} earlier ${count === 1 ? 'message' : 'messages'}: ` +
        `${exactTokens(compaction.replacedTokens)} tokens became ${exactTokens(compaction.tokens)}.`,
    );
  }
  if (notice) parts.push(notice);
  return parts.length > 0 ? parts.join(' ') : 'There was nothing to compact.';
}

/** The context meter of the open session, mirrored from the main process and reloaded as it changes. */
export const useContextStore = create<ContextState>((set, get) => ({
  status: null,
  draft: '',
  error: null,
  compacting: false,
  compactResult: null,
  attachments: [],
  setAttachments(tokens) {
    if (tokens.join('\n') === get().attachments.join('\n')) return;
    set({ attachments: tokens });
    loader.schedule(0);
  },
  setDraft(text) {
    const before = countedDraft(get().draft);
    set({ draft: text });
    if (countedDraft(text) !== before) loader.schedule(afterTypingMs);
  },
  async compact(focus) {
    const session = useChatStore.getState().session;
    const afterMessageId = session?.messages.at(-1)?.id ?? null;
    if (!session || session.messages.length === 0) {
      const text = 'There is nothing to compact: this chat has no messages yet.';
      set({ compactResult: { sessionId: session?.id ?? null, afterMessageId, text, failed: false } });
      return;
    }
    set({ compacting: true, compactResult: null });
    try {
      const { compaction, notice } = await kasten.context.compact({
        sessionId: session.id,
        ...(focus ? { focus } : {}),
      });
      const text = compactedText(compaction, notice);
      set({ compactResult: { sessionId: session.id, afterMessageId, text, failed: false } });
      await useChatStore.getState().reload();
    } catch (error) {
      const text = describeError(error);
      set({ compactResult: { sessionId: session.id, afterMessageId, text, failed: true } });
    } finally {
      set({ compacting: false });
      loader.schedule(0);
    }
  },
  settings: null,
  settingsError: null,
  async loadSettings() {
    try {
      set({ settings: await kasten.context.settings(), settingsError: null });
    } catch (error) {
      set({ settingsError: describeError(error) });
    }
  },
  async saveSettings(settings) {
    try {
      set({ settings: await kasten.context.configure(settings), settingsError: null });
      loader.schedule(0);
      return true;
    } catch (error) {
      set({ settingsError: describeError(error) });
      return false;
    }
  },
  async setStrategy(strategy) {
    const sessionId = openSessionId();
    if (!sessionId) return;
    try {
      await kasten.context.strategy({ sessionId, strategy });
      set({ error: null });
    } catch (error) {
      set({ error: describeError(error) });
    }
    loader.schedule(0);
  },
}));

let subscribed = false;
/**
 * Keeps the meter on the open session: reloads when another session opens, when the main process says the
 * session's context changed, when an answer ends, and when the model or its window changes.
 */
export function startContextSync(): void {
  if (subscribed) return;
  subscribed = true;
  kasten.context.onChanged(({ sessionId }) => {
    if (sessionId === openSessionId()) loader.schedule(afterEventMs);
  });
  kasten.chat.onMessage((message) => {
    const ended = message.role === 'assistant' && message.status !== 'streaming';
    if (ended && message.sessionId === openSessionId()) loader.schedule(afterEventMs);
  });
  kasten.vault.onChanged((change) => {
    if (change.reason === 'opened') loader.schedule(afterEventMs);
  });
  useChatStore.subscribe((state, previous) => {
    if (state.session?.id !== previous.session?.id) loader.schedule(0);
  });
  useSettingsStore.subscribe((state, previous) => {
    if (state.window !== previous.window || state.setup !== previous.setup) loader.schedule(afterEventMs);
  });
  // A `/Name` draft counts the note open in the viewer: another note opened changes what it brings.
  useNoteStore.subscribe((state, previous) => {
    const calling = useContextStore.getState().draft.trimStart().startsWith('/');
    if (calling && state.path !== previous.path) loader.schedule(afterEventMs);
  });
  // Items chosen for a chat not started yet count before its first message.
  useItemsStore.subscribe((state, previous) => {
    if (state.pending !== previous.pending) loader.schedule(afterEventMs);
  });
  loader.schedule(0);
}
