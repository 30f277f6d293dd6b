import {
  messageText,
  type ChatMessage,
  type ChatSession,
  type MessagePart,
  type SessionSummary,
} from '../../shared/chat-domain';
import { citedNumbers, parseCitations } from '../../shared/chat/citations';
import { AppError } from '../app-error';
import type { AppEvents } from '../app-events';
import type { ChatModel, LlmMessage } from '../llm/llm-types';
import type { ChatStore } from './chat-store';
import { addReference, runTurn, type TurnState } from './chat-turn';
import { directReferences } from './direct-references';
import type { ToolVault } from './note-locator';
import { systemPrompt } from './system-prompt';

export interface ChatServiceOptions {
  store: ChatStore;
  events: AppEvents;
  /** The open vault: its root (sessions belong to it), name, and the tools' view of it. */
  vault: () => { root: string; name: string; tools: ToolVault };
  /** The configured model; throws a user-facing AppError when none is set up. */
  model: () => ChatModel;
  /**
   * Resolves once the index has read the vault (or its pass was cancelled): the notes a message links,
   * and what the tools search and read, are looked up in it.
   */
  indexed?: () => Promise<void>;
  /** Tokens the notes linked in one message may take in the request. */
  referenceBudget: () => number | Promise<number>;
  stepLimit?: number;
  /** Streamed text is written to the database at least this often. */
  saveEveryMs?: number;
}

export interface StartedTurn {
  session: SessionSummary;
  userMessage: ChatMessage | null;
  assistantMessage: ChatMessage;
  /** Settles with the finished answer (complete, stopped or error); never rejects. */
  done: Promise<ChatMessage>;
}

/** Chat sessions of the open vault: sending, streaming, stopping and retrying answers. */
export class ChatService {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly options: ChatServiceOptions) {}

  /** Answers that were streaming when Kasten last stopped are marked interrupted. */
  start(): void {
    this.options.store.markInterrupted();
  }

  list(query = ''): SessionSummary[] {
    return this.options.store.listSessions(this.options.vault().root, query);
  }

  session(id: string): ChatSession {
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
   * background; resolves as soon as both messages exist.
   */
  async send(input: { sessionId?: string; text: string }): Promise<StartedTurn> {
    const { store } = this.options;
    const text = input.text.trim();
    if (text === '') throw new AppError('invalid-input', 'The message is empty.');
    // No vault, no model or a busy session fail at once, not after waiting for the index.
    this.options.vault();
    this.options.model();
    if (input.sessionId) this.assertIdle(input.sessionId);
    await this.options.indexed?.();
    const vault = this.options.vault();
    const model = this.options.model();
    const session = input.sessionId
      ? this.options.store.sessionSummary(input.sessionId)
      : store.createSession(vault.root, titleFrom(text));
    this.assertIdle(session.id);
    const numbers = (path: string, title: string) => store.documentNumber(session.id, path, title);
    const direct = await directReferences(text, vault.tools, numbers, await this.options.referenceBudget());
    const parts: MessagePart[] = [{ type: 'text', step: 0, text }];
    if (direct.context) parts.push({ type: 'context', step: 0, text: direct.context });
    const userMessage = store.addMessage(session.id, {
      role: 'user',
      parts,
      status: 'complete',
      model: null,
    });
    store.addReferences(userMessage.id, direct.references);
    const started = this.answer(session.id, model);
    return {
      ...started,
      session: this.options.store.sessionSummary(session.id),
      userMessage: store.message(userMessage.id),
    };
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
    const started = this.answer(sessionId, this.options.model());
    return { ...started, session: this.options.store.sessionSummary(sessionId), userMessage: null };
  }

  /** Aborts the running answer; what was streamed so far is kept and marked stopped. */
  stop(sessionId: string): void {
    this.running.get(sessionId)?.abort();
  }

  /** Stops every running answer (the app is closing). */
  stopAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  private assertIdle(sessionId: string): void {
    if (this.running.has(sessionId)) {
      throw new AppError('invalid-input', 'An answer is still being written in this session; stop it first.');
    }
  }

  private answer(sessionId: string, model: ChatModel): Omit<StartedTurn, 'session' | 'userMessage'> {
    const { store, events } = this.options;
    const vault = this.options.vault();
    const history = historyOf(store.session(sessionId).messages);
    const assistant = store.addMessage(sessionId, {
      role: 'assistant',
      parts: [],
      status: 'streaming',
      model: model.name,
    });
    const controller = new AbortController();
    this.running.set(sessionId, controller);
    const state: TurnState = { parts: [], references: [], usage: { inputTokens: null, outputTokens: null } };
    const saveEveryMs = this.options.saveEveryMs ?? 500;
    let savedAt = Date.now();
    let announcedAt = 0;
    const snapshot = (): ChatMessage => ({
      ...store.message(assistant.id),
      parts: state.parts,
      references: state.references,
    });

    const done = runTurn(
      {
        model,
        system: systemPrompt(vault.name),
        history,
        vault: vault.tools,
        numbers: (path, title) => store.documentNumber(sessionId, path, title),
        stepLimit: this.options.stepLimit ?? 8,
        signal: controller.signal,
        onChange: (_state, structural) => {
          const now = Date.now();
          if (structural || now - savedAt >= saveEveryMs) {
            store.updateMessage(assistant.id, { parts: state.parts });
            savedAt = now;
          }
          if (structural || now - announcedAt >= 40) {
            events.emit('chat:message', snapshot());
            announcedAt = now;
          }
        },
      },
      state,
    ).then((end) => {
      this.running.delete(sessionId);
      const documents = new Map(store.documents(sessionId).map((document) => [document.number, document]));
      const cited = citedNumbers(parseCitations(messageText(state), (number) => documents.has(number)));
      for (const number of cited) {
        const document = documents.get(number)!;
        const read = state.references.find((entry) => entry.path === document.path);
        addReference(state, {
          path: document.path,
          title: document.title,
          kind: 'cited',
          toolCallId: null,
          document: number,
          subpath: read?.subpath ?? null,
          mode: null,
          tokens: null,
          summary: vault.tools.summary(document.path),
        });
      }
      store.updateMessage(assistant.id, {
        parts: state.parts,
        status: end.status,
        error: end.status === 'error' ? end.error : null,
        usage: state.usage,
      });
      store.addReferences(assistant.id, state.references);
      const finished = store.message(assistant.id);
      events.emit('chat:message', finished);
      return finished;
    });
    return { assistantMessage: assistant, done };
  }
}

/** The conversation as the model sees it: questions with their linked notes, and the answers given. */
function historyOf(messages: ChatMessage[]): LlmMessage[] {
  const history: LlmMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.parts
        .map((part) => (part.type === 'tool-call' ? '' : part.text))
        .filter(Boolean)
        .join('\n\n');
      history.push({ role: 'user', text });
    } else if (message.status !== 'error' && messageText(message).trim() !== '') {
      history.push({ role: 'assistant', text: messageText(message), toolCalls: [] });
    }
  }
  return history;
}

function titleFrom(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
