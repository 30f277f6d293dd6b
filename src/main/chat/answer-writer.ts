import { messageText, type ChatMessage } from '../../shared/chat-domain';
import { citedNumbers, parseCitations } from '../../shared/chat/citations';
import type { AppEvents } from '../app-events';
import type { RequestContext, RequestItem } from '../../shared/context-domain';
import type { PriceQuote } from '../../shared/cost/cost-domain';
import type { ChatModel } from '../llm/llm-types';
import { answerLeaseMs, answerLeaseRenewMs, currentOwner } from './answer-owner';
import type { ChatStore } from './chat-store';
import type { DirectCost } from './message-references';
import { AnswerAnnouncer } from './answer-announcer';
import { addReference, runTurn, type TurnEnd, type TurnOptions, type TurnState } from './chat-turn';
import type { ToolVault } from './note-locator';
import type { RequestPlanner } from '../request/request-planner';
import { withSentReferences } from '../request/history/conversation';
import { Throttle } from './throttle';
import type { WriteContext } from './write-tools';

/** A structural change (a part added, a tool's result) is saved within this time, text within `saveEveryMs`. */
const structuralSaveMs = 40;
/** Announcements of one answer (`chat:delta`, `chat:message`) are at least this far apart; the last state always follows. */
const announceEveryMs = 40;
/**
 * `context:changed` events of a streaming answer are at least this far apart: each makes every client ask
 * for the meter again, and its own streamed text moves the next request little; the end is always announced.
 */
const meterEveryMs = 1000;

export interface AnswerOptions {
  store: ChatStore;
  events: AppEvents;
  sessionId: string;
  model: ChatModel;
  vault: { name: string; tools: ToolVault };
  /** How write tool calls are decided on in this answer. */
  writes: Omit<WriteContext, 'vault'>;
  /** Plans each request of the answer from the conversation and the question. */
  planner: RequestPlanner;
  /** Every tool the answer's calls may name, and what they run with. */
  tools: TurnOptions['tools'];
  stepLimit: number;
  /** What the model's calls cost (see `TurnOptions.price`). */
  price: Promise<PriceQuote> | null;
  /** What another model's calls cost (see `TurnOptions.priceOf`). */
  priceOf?: (model: string) => Promise<PriceQuote>;
  /** Streamed text is written to the database at least this often. */
  saveEveryMs: number;
  /** Called once the answer is saved, before its last event. */
  onSettled: () => void;
}

export interface WrittenAnswer {
  /** The answer as first stored: streaming, without parts. */
  assistant: ChatMessage;
  /** Aborting it stops the answer; what was streamed is kept. */
  controller: AbortController;
  /** Announces the whole answer now (a client missed a delta); nothing once it has ended. */
  resend: () => void;
  /** Settles with the finished answer (complete, stopped or error); never rejects. */
  done: Promise<ChatMessage>;
}

/**
 * Writes one answer: runs its agent loop, saves the parts that changed, announces it as
 * `chat:message` events built from memory, renews its lease while it streams, and records its citations.
 */
export function writeAnswer(options: AnswerOptions): WrittenAnswer {
  const { store, events, sessionId, model, vault } = options;
  const leaseUntil = () => Date.now() + answerLeaseMs;
  const assistant = store.addMessage(sessionId, {
    role: 'assistant',
    parts: [],
    status: 'streaming',
    model: model.name,
    owner: { owner: currentOwner(), leaseUntil: leaseUntil() },
  });
  const controller = new AbortController();
  const requests: RequestContext[] = [];
  const state: TurnState = {
    parts: [],
    changed: new Set(),
    references: [],
    usage: { inputTokens: null, outputTokens: null },
  };
  // A failed save or event ends the answer with that error instead of escaping from a timer.
  let failure: unknown = null;
  const guarded =
    <Args extends unknown[]>(work: (...args: Args) => void) =>
    (...args: Args) => {
      try {
        work(...args);
      } catch (error) {
        failure ??= error;
        controller.abort();
      }
    };
  const saves = new Throttle(
    guarded(() => {
      store.updateMessage(assistant.id, { parts: state.parts, changedParts: state.changed });
      state.changed.clear();
    }),
    structuralSaveMs,
  );
  // Reading the answer back for each event would cost a query per change.
  const announcer = new AnswerAnnouncer(events, () => ({
    ...assistant,
    parts: state.parts,
    references: state.references,
    requests,
    usage: state.usage,
    updatedAt: new Date().toISOString(),
  }));
  const announcements = new Throttle(
    guarded(() => announcer.announce()),
    announceEveryMs,
  );
  // The meter follows the answer: a request planned, its usage reported, a tool result come in.
  const contextChanges = new Throttle(
    guarded(() => events.emit('context:changed', { sessionId })),
    meterEveryMs,
  );
  let ended = false;
  const lease = setInterval(
    guarded(() => store.streaming.renewLease(assistant.id, leaseUntil())),
    answerLeaseRenewMs,
  );
  lease.unref();

  const done = runTurn(
    {
      model,
      requests: options.planner,
      onRequest: guarded((position, context) => {
        requests[position] = context;
        // The requests go out with the whole message: a delta carries parts only.
        announcer.needWhole();
        store.contexts.putRequest(assistant.id, position, context);
        // The question keeps its linked notes as the answer's first request gave them (a retry of it
        // smaller after a refusal included), and each note what it cost there, in the provider's tokens.
        if (context.step === 0 && !context.overflow) {
          keepSentReferences(store, options.planner);
          store.references.setDirectCosts(options.planner.questionId, directCosts(context));
        }
        contextChanges.request();
      }),
      vault: vault.tools,
      writes: options.writes,
      numbers: (path, title) => store.documentNumber(sessionId, path, title),
      tokensOf: (text) => options.planner.tokensOf(text),
      tools: options.tools,
      stepLimit: options.stepLimit,
      price: options.price,
      priceOf: options.priceOf,
      signal: controller.signal,
      onChange: (_state, structural, waiting) => {
        // A card waiting for a decision is saved at once: a reload, or another window, shows it.
        saves.request(waiting ? 0 : structural ? structuralSaveMs : options.saveEveryMs);
        announcements.request();
        if (structural) contextChanges.request();
      },
    },
    state,
  ).then((turnEnd) => {
    ended = true;
    clearInterval(lease);
    saves.cancel();
    announcements.cancel();
    // The last text goes out as a delta too: the streamed state then equals the finished message's parts.
    guarded(() => announcer.announce())();
    contextChanges.cancel();
    const end: TurnEnd =
      failure === null
        ? turnEnd
        : { status: 'error', error: `The answer could not be saved: ${describe(failure)}` };
    const finished: ChatMessage = {
      ...assistant,
      parts: state.parts,
      references: state.references,
      requests,
      status: end.status,
      error: end.status === 'error' ? end.error : null,
      usage: state.usage,
    };
    try {
      cite(store, sessionId, state, vault.tools);
      store.updateMessage(assistant.id, {
        parts: state.parts,
        changedParts: state.changed,
        status: finished.status,
        error: finished.error,
        usage: state.usage,
      });
      store.references.add(assistant.id, state.references);
      finished.updatedAt = new Date().toISOString();
    } catch (error) {
      finished.status = 'error';
      finished.error = `The answer could not be saved: ${describe(error)}`;
    }
    options.onSettled();
    events.emit('chat:message', finished);
    events.emit('context:changed', { sessionId });
    return finished;
  });
  const resend = () => {
    if (ended) return;
    announcer.needWhole();
    announcements.request(0);
  };
  return { assistant, controller, done, resend };
}

/** Stores the question's linked notes as the first request sent them, for later requests to replay. */
function keepSentReferences(store: ChatStore, planner: RequestPlanner): void {
  const question = store.message(planner.questionId);
  const parts = withSentReferences(question.parts, planner.sentReferences);
  if (parts) store.updateMessage(question.id, { parts });
}

/** What each linked note cost in a request, and whether the model read the note itself or a stand-in. */
function directCosts(context: RequestContext): DirectCost[] {
  return context.items.flatMap((item) =>
    item.kind === 'reference' && item.include === 'direct' && item.path
      ? [{ path: item.path, tokens: item.tokens, mode: standIns.has(item.form) ? 'summary' : 'inline' }]
      : [],
  );
}

const standIns: ReadonlySet<RequestItem['form']> = new Set(['fallback', 'title']);

/** Records the notes the answer cites as `cited` references. */
function cite(store: ChatStore, sessionId: string, state: TurnState, tools: ToolVault): void {
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
      summary: tools.summary(document.path),
    });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
