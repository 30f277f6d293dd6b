import { create } from 'zustand';
import type { ChatMessage, ChatSession, SessionSummary } from '../../../../shared/chat-domain';
import type { SendInput } from '../../../../shared/context-items-domain';
import { applyDelta, type MessageDelta } from '../../../../shared/chat/message-delta';
import { describeError, kasten } from '../../api';

/** A saved prompt a message calls: its name, the open note, the words after it. */
export interface SavedPromptCall {
  name: string;
  note?: string;
  selection?: string;
  text?: string;
}

interface ChatState {
  sessions: SessionSummary[];
  query: string;
  session: ChatSession | null;
  /** The answer whose references the panel shows; the last one when null. */
  selectedMessageId: number | null;
  /** A session just deleted, offered for undo. */
  deleted: SessionSummary | null;
  error: string | null;
  /** A message is on its way (it may wait for the index to finish reading the vault). */
  sending: boolean;
  loadSessions(query?: string): Promise<void>;
  open(id: string): Promise<void>;
  /** Shows the session that was open before a reload; one deleted since leaves the chat empty. */
  resume(id: string): Promise<void>;
  /** Reads the open session again (compactions, recorded requests), keeping newer streamed states. */
  reload(): Promise<void>;
  newChat(): void;
  /**
   * Sends a message with the files prepared for it and, in a chat not started yet, the items chosen;
   * with `saved`, the saved prompt it calls (its words after the name in `saved.text`).
   */
  send(
    text: string,
    more?: Pick<SendInput, 'attachments' | 'items' | 'prompt' | 'selection' | 'writes'> & {
      saved?: SavedPromptCall;
    },
  ): Promise<boolean>;
  stop(): Promise<void>;
  retry(): Promise<void>;
  /** Approves or rejects the change the answer waits on; resolves with why that failed, or null. */
  decide(callId: string, approved: boolean): Promise<string | null>;
  /** Undoes the change of a write call; null when undone, else why not, in words. */
  undoWrite(messageId: number, callId: string): Promise<string | null>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  undoRemove(): Promise<void>;
  select(messageId: number | null): void;
  apply(message: ChatMessage): void;
  /** Applies what a streaming answer gained; a delta that does not follow asks for the whole message. */
  applyDelta(delta: MessageDelta): void;
}

/** The chat sessions of the open vault and the one shown, mirrored from the main process. */
export const useChatStore = create<ChatState>((set, get) => ({
  sessions: [],
  query: '',
  session: null,
  selectedMessageId: null,
  deleted: null,
  error: null,
  sending: false,
  async loadSessions(query = get().query) {
    set({ query });
    try {
      const sessions = await kasten.sessions.list(query ? { query } : undefined);
      if (get().query === query) set({ sessions });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  async open(id) {
    try {
      set({ session: await kasten.sessions.get({ id }), selectedMessageId: null, error: null });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  async resume(id) {
    try {
      const session = await kasten.sessions.get({ id });
      if (get().session === null) set({ session, selectedMessageId: null });
    } catch {
      // Deleted (or unreadable) since: an empty chat is the honest start.
    }
  },
  async reload() {
    const id = get().session?.id;
    if (!id) return;
    try {
      const fresh = await kasten.sessions.get({ id });
      const current = get().session;
      if (current?.id !== id) return;
      set({ session: { ...fresh, messages: withMessages(current, fresh.messages).messages } });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  newChat() {
    set({ session: null, selectedMessageId: null, error: null });
  },
  async send(text, more = {}) {
    const current = get().session;
    set({ sending: true });
    try {
      const { saved, ...rest } = more;
      const started = saved
        ? await kasten.prompts.send({
            ...saved,
            sessionId: current?.id,
            attachments: rest.attachments,
            writes: rest.writes,
          })
        : await kasten.chat.send({ text, sessionId: current?.id, ...rest });
      const base =
        current?.id === started.session.id
          ? current
          : // A new session: its strategy and compactions are read with it once the answer ends.
            { ...started.session, messages: [], documents: [], strategy: 'hybrid' as const, compactions: [] };
      set({
        session: withMessages(base, [
          started.userMessage,
          started.assistantMessage,
          ...early.take(started.session.id),
        ]),
        selectedMessageId: null,
        error: null,
      });
      void get().loadSessions();
      const answer = get().session?.messages.find((message) => message.id === started.assistantMessage.id);
      // The answer ended before this request returned: its end was applied to no session.
      if (answer && answer.status !== 'streaming') void get().reload();
      return true;
    } catch (error) {
      set({ error: describeError(error) });
      return false;
    } finally {
      set({ sending: false });
    }
  },
  async stop() {
    const session = get().session;
    if (!session) return;
    try {
      await kasten.chat.stop({ sessionId: session.id });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  async decide(callId, approved) {
    const session = get().session;
    if (!session) return 'No chat is open.';
    try {
      await kasten.chat.approve({ sessionId: session.id, callId, approved });
      return null;
    } catch (error) {
      return describeError(error);
    }
  },
  async undoWrite(messageId, callId) {
    const session = get().session;
    if (!session) return 'No chat is open.';
    try {
      // The card turns to undone with the message the main process announces.
      const [outcome] = await kasten.writes.undo({ sessionId: session.id, messageId, callId });
      return outcome && !outcome.undone ? outcome.message : null;
    } catch (error) {
      return describeError(error);
    }
  },
  async retry() {
    const session = get().session;
    if (!session) return;
    try {
      const { assistantMessage } = await kasten.chat.retry({ sessionId: session.id });
      set({
        session: withMessages(get().session ?? session, [assistantMessage, ...early.take(session.id)]),
        error: null,
      });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
  async rename(id, title) {
    await kasten.sessions.rename({ id, title });
    const session = get().session;
    if (session?.id === id) set({ session: { ...session, title } });
    await get().loadSessions();
  },
  async remove(id) {
    const summary = get().sessions.find((entry) => entry.id === id) ?? null;
    await kasten.sessions.delete({ id });
    if (get().session?.id === id) get().newChat();
    set({ deleted: summary });
    await get().loadSessions();
  },
  async undoRemove() {
    const deleted = get().deleted;
    if (!deleted) return;
    await kasten.sessions.restore({ id: deleted.id });
    set({ deleted: null });
    await get().loadSessions();
    await get().open(deleted.id);
  },
  select(messageId) {
    set({ selectedMessageId: messageId });
  },
  apply(message) {
    const session = get().session;
    if (!session || session.id !== message.sessionId) {
      // An answer can stream before the request that started it has returned: keep it for then.
      resending.delete(message.id);
      early.keep(message);
      if (message.status !== 'streaming') void get().loadSessions();
      return;
    }
    resending.delete(message.id);
    set({ session: withMessages(session, [message]) });
    if (message.status === 'streaming') return;
    void get().loadSessions();
    // The turn may have compacted the session or recorded its requests since the last event.
    if (message.role === 'assistant') void get().reload();
  },
  applyDelta(delta) {
    const session = get().session;
    const shown = session?.id === delta.sessionId;
    const known = shown
      ? session.messages.find((message) => message.id === delta.messageId)
      : early.find(delta.sessionId, delta.messageId);
    const next = known && applyDelta(known, delta);
    if (next) {
      if (shown) set({ session: withMessages(session, [next]) });
      else early.keep(next);
      return;
    }
    // A missed delta, or the page joined mid-answer: the whole message comes again as a `chat:message`.
    if (!shown && !known && !get().sending) return;
    if (resending.has(delta.messageId)) return;
    resending.add(delta.messageId);
    kasten.chat.resend({ sessionId: delta.sessionId, messageId: delta.messageId }).catch((error: unknown) => {
      resending.delete(delta.messageId);
      set({ error: describeError(error) });
    });
  },
}));

/** Answers whose whole message was asked for again; their deltas wait for it. */
const resending = new Set<number>();

/** Messages pushed for a session the store is not showing yet, by session. */
const early = {
  messages: new Map<string, Map<number, ChatMessage>>(),
  keep(message: ChatMessage) {
    if (this.messages.size > 20) this.messages.clear();
    const forSession = this.messages.get(message.sessionId) ?? new Map<number, ChatMessage>();
    forSession.set(message.id, newer(forSession.get(message.id), message));
    this.messages.set(message.sessionId, forSession);
  },
  find(sessionId: string, id: number): ChatMessage | undefined {
    return this.messages.get(sessionId)?.get(id);
  },
  take(sessionId: string): ChatMessage[] {
    const kept = [...(this.messages.get(sessionId)?.values() ?? [])];
    this.messages.delete(sessionId);
    return kept;
  },
};

/** The later of two states of a message: a finished one never goes back to streaming. */
function newer(known: ChatMessage | undefined, incoming: ChatMessage): ChatMessage {
  if (!known) return incoming;
  if (known.status !== 'streaming' && incoming.status === 'streaming') return known;
  // While it streams, the announced state (with a sequence) is ahead of a saved one, and of older ones.
  if (known.sequence !== undefined && incoming.status === 'streaming') {
    if (incoming.sequence === undefined || incoming.sequence < known.sequence) return known;
  }
  if (known.status === incoming.status && incoming.parts.length < known.parts.length) return known;
  return incoming;
}

/** The session with `messages` added or replacing older states of the same ones, in id order. */
function withMessages(session: ChatSession, messages: ChatMessage[]): ChatSession {
  const byId = new Map(session.messages.map((message) => [message.id, message]));
  for (const message of messages) byId.set(message.id, newer(byId.get(message.id), message));
  return { ...session, messages: [...byId.values()].sort((a, b) => a.id - b.id) };
}

let subscribed = false;
/** Follows streamed answers; another vault shows its own sessions. */
export function startChatSync(): void {
  if (subscribed) return;
  subscribed = true;
  kasten.chat.onMessage((message) => useChatStore.getState().apply(message));
  kasten.chat.onDelta((delta) => useChatStore.getState().applyDelta(delta));
  let vaultPath: string | null = null;
  kasten.vault.tree().then(
    (tree) => (vaultPath ??= tree.vault?.path ?? null),
    () => {},
  );
  kasten.vault.onChanged((change) => {
    if (change.reason !== 'opened' || change.vault.path === vaultPath) return;
    vaultPath = change.vault.path;
    useChatStore.getState().newChat();
    void useChatStore.getState().loadSessions('');
  });
  void useChatStore.getState().loadSessions();
}
