import {
  type ChatSession,
  type MessagePart,
  type SessionListing,
  type SessionSummary,
} from '../../shared/chat-domain';
import type { SendInput } from '../../shared/context-items-domain';
import { usageTotal } from '../../shared/cost/cost-math';
import { AppError } from '../app-error';
import type { ChatModel } from '../llm/llm-types';
import type { DirectReferences } from '../request/sources/linked-notes';
import { selectedNote } from '../request/sources/selected-passage';
import { webReference } from '../web/web-references';
import { answerAbandoned } from './answer-owner';
import { startAnswer } from './answer-start';
import type { ChatServiceOptions, StartedTurn } from './chat-service-options';
import type { MessageExtras } from './message-extras';
import type { WriteMode } from './write-permissions';

/** A session's running answer (or compaction): how to stop it and when it is saved. */
interface Running {
  controller: AbortController;
  done: Promise<unknown>;
  answerId?: number;
  resend?: () => void;
}

/** Chat sessions of the open vault: sending, streaming, stopping and retrying answers. */
export class ChatService {
  private readonly running = new Map<string, Running>();

  constructor(private readonly options: ChatServiceOptions) {}

  /**
   * Answers whose writer is gone (Kasten stopped while writing them) are marked interrupted; answers
   * another Kasten process on the same data is writing are left alone.
   */
  start(): void {
    this.markAbandoned();
  }

  /** Stops every running answer and waits until what each streamed is saved. */
  async dispose(): Promise<void> {
    const running = [...this.running.values()];
    for (const { controller } of running) controller.abort();
    await Promise.all(running.map(({ done }) => done));
  }

  /** The vault's sessions, each with its tokens and cost so far. */
  list(query = ''): SessionListing[] {
    // A process that started while another was writing an answer looks again whenever sessions are read.
    this.markAbandoned();
    const { store } = this.options;
    const root = this.options.vault().root;
    const totals = store.usage.totals(root);
    return store
      .listSessions(root, query)
      .map((session) => ({ ...session, usage: totals.get(session.id) ?? usageTotal([]) }));
  }

  session(id: string): ChatSession {
    this.markAbandoned();
    return this.options.store.session(id);
  }

  rename(id: string, title: string): void {
    this.options.store.rename(id, title);
  }

  delete(id: string): void {
    this.stop(id);
    this.options.store.delete(id);
  }

  restore(id: string): void {
    this.options.store.restore(id);
  }

  /**
   * Commits the user's message (with its linked notes resolved), then streams the answer in the
   * background; resolves as soon as both messages exist. `writes` decides this answer's write calls
   * otherwise than the app does (`kasten ask --allow-writes`).
   */
  async send(input: SendInput, writes?: WriteMode, extras?: MessageExtras): Promise<StartedTurn> {
    const { store } = this.options;
    const text = input.text.trim();
    if (text === '') throw new AppError('invalid-input', 'The message is empty.');
    // No vault, no model or a busy session fail at once, not after waiting for the index.
    this.options.vault();
    this.options.model();
    if (input.sessionId) this.assertIdle(input.sessionId);
    if ((input.attachments?.length ?? 0) > 0 && !this.options.attachments)
      throw new AppError('unsupported', 'Files cannot be attached here.');
    await this.options.indexed?.();
    const vault = this.options.vault();
    const model = extras?.model ?? this.options.model();
    // Everything that can be wrong is checked before the chat or the message is made.
    await this.options.attachments?.intake.check(input.attachments ?? []);
    const items = await this.checkItems(input.items);
    if (input.selection) selectedNote(input.selection, vault.tools);
    const session = input.sessionId
      ? this.options.store.sessionSummary(input.sessionId)
      : this.newSession(vault.root, titleFrom(text));
    this.assertIdle(session.id);
    this.options.items?.add(session.id, items);
    if (input.prompt) this.options.items?.setAgentPrompt(session.id, input.prompt);
    // Chosen before the chat started: its first answer already asks, or writes at once.
    if (input.writes) this.options.writes?.chats.set(session.id, input.writes);
    const direct = await this.withExtras(
      session.id,
      await this.options.context.references(session.id, text, input.selection),
      extras,
    );
    // The notes it links are added to its parts as its answer's first request gives them.
    const parts: MessagePart[] = [{ type: 'text', step: 0, text }, ...(extras?.parts ?? [])];
    if (input.selection) parts.push({ type: 'selection', step: 0, selection: input.selection });
    const userMessage = store.addMessage(session.id, {
      role: 'user',
      parts,
      status: 'complete',
      model: null,
    });
    store.references.add(userMessage.id, direct.references);
    const files = this.options.attachments?.intake.take(input.attachments ?? []) ?? [];
    if (files.length > 0) {
      // Kept with the message: its point in the conversation is where the model is given it.
      for (const { file, tokens } of files) {
        // A web page is numbered for the session as it is sent, so that answers cite it like a note.
        const document = file.url ? store.documentNumber(session.id, file.url, file.name) : null;
        const {
          text: _text,
          language: _language,
          ...attachment
        } = this.options.attachments!.store.add(userMessage.id, file, tokens, document);
        parts.push({ type: 'attachment', step: 0, attachment });
        store.references.add(userMessage.id, webReference(attachment));
      }
      store.updateMessage(userMessage.id, { parts });
    }
    const started = await this.answer(session.id, model, direct, writes);
    return {
      ...started,
      session: this.options.store.sessionSummary(session.id),
      userMessage: store.message(userMessage.id),
    };
  }

  /** The message's linked notes with what its extras bring (a saved prompt's note), numbered for the chat. */
  private async withExtras(
    sessionId: string,
    direct: DirectReferences,
    extras: MessageExtras | undefined,
  ): Promise<DirectReferences> {
    if (!extras) return direct;
    const numbers = (path: string, title: string) =>
      this.options.store.documentNumber(sessionId, path, title);
    const added = await extras.context(numbers, AbortSignal.timeout(30_000));
    return {
      references: [...added.references, ...direct.references],
      items: [...added.items, ...direct.items],
    };
  }

  /** Items chosen before the chat existed (`@` in a new chat, `kasten ask --pin`), checked. */
  private async checkItems(items: SendInput['items']) {
    if (!items) return [];
    if (!this.options.items)
      throw new AppError('unsupported', 'Rules, tools and pinned notes cannot be added here.');
    return this.options.items.check(items);
  }

  /** Answers the last user message again, after a failed or stopped answer. */
  async retry(sessionId: string): Promise<StartedTurn> {
    this.assertIdle(sessionId);
    await this.options.indexed?.();
    this.assertIdle(sessionId);
    const last = this.options.store
      .session(sessionId)
      .messages.filter((message) => message.role === 'user')
      .at(-1);
    if (!last) throw new AppError('invalid-input', 'There is no question to retry in this session.');
    const words = last.parts.find((part) => part.type === 'text')?.text ?? '';
    const selection = last.parts.find((part) => part.type === 'selection')?.selection;
    // A message from a saved prompt is sent again with what the prompt brought: its note, its model.
    const extras = (await this.options.again?.(last)) ?? undefined;
    const direct = await this.withExtras(
      sessionId,
      await this.options.context.references(sessionId, words, selection),
      extras,
    );
    this.assertIdle(sessionId);
    const started = await this.answer(sessionId, extras?.model ?? this.options.model(), direct);
    return { ...started, session: this.options.store.sessionSummary(sessionId), userMessage: null };
  }

  /**
   * `/compact [focus]`: summarizes the session's older messages now; the messages stay. Runs like an
   * answer: one at a time per session, and Stop cancels it.
   */
  async compact(sessionId: string, focus?: string) {
    this.assertIdle(sessionId);
    this.options.model();
    const controller = new AbortController();
    const done = this.options.context.compact(sessionId, focus, controller.signal);
    this.begin(sessionId, { controller, done: done.catch(() => null) });
    try {
      return await done;
    } catch (error) {
      if (controller.signal.aborted) return { compaction: null, notice: 'Compacting was stopped.' };
      throw error;
    } finally {
      this.end(sessionId);
      this.options.events.emit('context:changed', { sessionId });
    }
  }

  /**
   * Announces a message whole again: the streaming answer from memory (with its sequence), any other
   * as stored.
   */
  resend(sessionId: string, messageId: number): void {
    const running = this.running.get(sessionId);
    if (running?.answerId === messageId && running.resend) return running.resend();
    const message = this.options.store.message(messageId);
    if (message.sessionId === sessionId) this.options.events.emit('chat:message', message);
  }

  /** Aborts the running answer; what was streamed so far is kept and marked stopped. */
  stop(sessionId: string): void {
    this.running.get(sessionId)?.controller.abort();
  }

  /** Stops every running answer (the app is closing). */
  stopAll(): void {
    for (const { controller } of this.running.values()) controller.abort();
  }

  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  private newSession(vault: string, title: string): SessionSummary {
    const session = this.options.store.createSession(vault, title);
    this.options.context.newSession(session.id);
    return session;
  }

  private markAbandoned(): void {
    const now = Date.now();
    this.options.store.streaming.markInterrupted((answer) => answerAbandoned(answer, now));
  }

  /** Keeps a session's answer or compaction while it runs; `chat:answering` tells who waits on the server. */
  private begin(sessionId: string, running: Running): void {
    this.running.set(sessionId, running);
    this.options.events.emit('chat:answering', { sessionId, answering: true });
  }

  private end(sessionId: string): void {
    if (this.running.delete(sessionId)) {
      this.options.events.emit('chat:answering', { sessionId, answering: false });
    }
  }

  private assertIdle(sessionId: string): void {
    if (this.running.has(sessionId)) {
      throw new AppError('invalid-input', 'An answer is still being written in this session; stop it first.');
    }
  }

  private answer(
    sessionId: string,
    model: ChatModel,
    direct: DirectReferences,
    mode = this.options.writes?.mode ?? 'refused',
  ): Promise<Omit<StartedTurn, 'session' | 'userMessage'>> {
    const hooks = {
      assertIdle: (id: string) => this.assertIdle(id),
      begin: (id: string, running: Running) => this.begin(id, running),
      end: (id: string) => this.end(id),
    };
    return startAnswer(this.options, hooks, sessionId, model, direct, mode);
  }
}

function titleFrom(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
