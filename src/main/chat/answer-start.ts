import type { PriceQuote } from '../../shared/cost/cost-domain';
import { AppError } from '../app-error';
import type { ChatModel } from '../llm/llm-types';
import type { DirectReferences } from '../request/sources/linked-notes';
import { writeAnswer } from './answer-writer';
import type { ChatServiceOptions, StartedTurn } from './chat-service-options';
import type { WriteMode } from './write-permissions';
import type { NoteWriter } from './write-tools';

/** What the service keeps of a running answer, and how it is told the answer ended. */
export interface AnswerHooks {
  /** Throws when the session already has an answer running. */
  assertIdle: (sessionId: string) => void;
  begin: (
    sessionId: string,
    running: { controller: AbortController; done: Promise<unknown>; answerId: number; resend: () => void },
  ) => void;
  end: (sessionId: string) => void;
}

/** The writer of a service built without writes: never reached, write calls are refused before it. */
const refusingWriter: NoteWriter = {
  prepareCreate: () => Promise.reject(new AppError('forbidden', 'Nothing may be written here.')),
  prepareAppend: () => Promise.reject(new AppError('forbidden', 'Nothing may be written here.')),
  prepareEdit: () => Promise.reject(new AppError('forbidden', 'Nothing may be written here.')),
};

/**
 * Starts the answer to the session's last question with `model`: plans its requests, writes it as it
 * streams, and resolves once the answer message exists. `mode` decides its write calls.
 */
export async function startAnswer(
  options: ChatServiceOptions,
  hooks: AnswerHooks,
  sessionId: string,
  model: ChatModel,
  direct: DirectReferences,
  mode: WriteMode,
): Promise<Omit<StartedTurn, 'session' | 'userMessage'>> {
  const { store, events, writes, price } = options;
  if (!writes) mode = 'refused';
  // What a model's calls cost; an unknown price when it cannot be found.
  const quote = price && ((name: string) => price(name).catch((): PriceQuote => ({ kind: 'unknown' })));
  const messages = store.session(sessionId).messages;
  const offered = writes?.permissions.offered(mode) ?? false;
  const planner = await options.context.planner(sessionId, messages, direct, offered, model.contextWindow);
  hooks.assertIdle(sessionId);
  const { assistant, controller, done, resend } = writeAnswer({
    store,
    events,
    sessionId,
    model,
    vault: options.vault(),
    planner,
    writes: {
      mode,
      allowed: () => writes?.permissions.offered(mode) ?? false,
      allowedInChat: () => writes?.chats.allows(sessionId) ?? false,
      writer: writes?.writer ?? refusingWriter,
      decide: (callId, signal) => writes?.decisions.wait(sessionId, callId, signal) ?? Promise.resolve(false),
      record: (callId, change, write) =>
        writes?.records.add({ sessionId, callId, vault: options.vault().root, kind: change.kind }, write),
    },
    tools: {
      registry: options.tools.registry,
      sessionId,
      attachments: options.attachments?.store ?? null,
      mcp: options.items ? options.tools.mcp : null,
    },
    stepLimit: options.stepLimit ?? 8,
    // Asked as the answer starts, awaited as its first call ends: the answer does not wait for it. The
    // answering model's: a saved prompt's `model:` is priced as itself.
    price: quote ? quote(model.name) : null,
    priceOf: quote,
    saveEveryMs: options.saveEveryMs ?? 500,
    // Before the last event, so that whoever hears it may send the next message at once.
    onSettled: () => hooks.end(sessionId),
  });
  hooks.begin(sessionId, { controller, done, answerId: assistant.id, resend });
  return { assistantMessage: assistant, done };
}
