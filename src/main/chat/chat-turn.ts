import type {
  ChatReference,
  MessagePart,
  TextPart,
  ToolCallPart,
  TokenUsage,
} from '../../shared/chat-domain';
import type { RequestContext } from '../../shared/context-domain';
import type { PriceQuote } from '../../shared/cost/cost-domain';
import { recognizeContextLengthError } from '../request/context-length-error';
import type { ChatModel, LlmMessage, LlmToolCall, LlmToolResult } from '../llm/llm-types';
import { ModelError } from '../llm/llm-types';
import type { ToolVault } from './note-locator';
import type { RequestPlanner } from '../request/request-planner';
import { ContextOverflowError, tooLong } from '../request/record/request-record';
import { citationReminder } from '../request/sources/system-prompt';
import { failure, type AnswerTools, type DocumentNumbers } from '../tools/tool-registry';
import { countCall, countSummaryCalls } from './turn-usage';
import type { WriteContext } from './write-tools';

export interface TurnOptions {
  model: ChatModel;
  /** Plans every request from the conversation, the question and this turn's steps so far. */
  requests: Pick<RequestPlanner, 'plan' | 'reported' | 'overflowed' | 'takeSummaryCalls'>;
  /** Called with what the `position`th request held, and again once the provider reported its usage. */
  onRequest: (position: number, context: RequestContext) => void;
  vault: ToolVault;
  /** How write tool calls are decided on in this answer. */
  writes: WriteContext;
  numbers: DocumentNumbers;
  /** Every tool a call may name: each call is run by the registry. */
  tools: AnswerTools;
  /** A text's tokens as the provider counts them (calibrated): what a note's part of a tool result cost. */
  tokensOf: (text: string) => number;
  stepLimit: number;
  /** What the model's calls cost, asked as the answer starts; null: the answer is not priced. */
  price: Promise<PriceQuote> | null;
  /** What another model's calls cost (the summary model's, when it is not the one answering). */
  priceOf?: (model: string) => Promise<PriceQuote>;
  signal: AbortSignal;
  /**
   * Called whenever the answer changed (text arrived, a tool ran); `structural` when a part was added,
   * `waiting` when the turn now waits for the user (a write to approve): what is shown is saved at once.
   */
  onChange: (state: TurnState, structural: boolean, waiting?: boolean) => void;
}

export interface TurnState {
  parts: MessagePart[];
  /** Positions of the parts changed since the answer was last saved: only these are written again. */
  changed: Set<number>;
  references: ChatReference[];
  usage: TokenUsage;
}

export type TurnEnd = { status: 'complete' } | { status: 'stopped' } | { status: 'error'; error: string };

/** Tool calls run in one step; the model is told the others were not run. */
export const toolCallsPerStep = 16;
/** Past this many tool calls in one step the rest of the model's reply is not read and the answer ends. */
export const toolCallCeiling = 256;

/**
 * The agent loop of one answer: stream a step, run the tool calls it asked for, feed the results back,
 * until the model answers without tools or the step limit is reached. Never throws: the end says why.
 */
export async function runTurn(options: TurnOptions, state: TurnState): Promise<TurnEnd> {
  const { model, signal, requests } = options;
  // This turn's steps: the tool calls asked for and their results, sent back with every next request.
  const messages: LlmMessage[] = [];
  let searched = false;
  let position = 0;
  let lastRecorded = -1;
  const record = (slot: number, context: RequestContext) => {
    lastRecorded = Math.max(lastRecorded, slot);
    options.onRequest(slot, context);
  };
  try {
    for (let step = 0; step < options.stepLimit; step++) {
      const calls: { part: ToolCallPart; position: number }[] = [];
      const invalid = new Map<string, string>();
      let text: { part: TextPart; position: number } | null = null;
      // Reminders go last and are not kept: each request carries the ones in force now.
      const reminders = searched ? [citationReminder] : [];
      // Aborted when the model asks for more tool calls than are ever run: its reply is not read further.
      const flood = new AbortController();
      let started = 0;
      let request = await requests.plan(step, messages, reminders, false, signal);
      await countSummaryCalls(requests.takeSummaryCalls(), state, options);
      record(position, request.context);
      let retried = false;
      for (;;) {
        const partsBefore = state.parts.length;
        try {
          for await (const event of model.stream({
            system: request.system,
            messages: request.messages,
            tools: [...request.tools],
            maxOutputTokens: request.maxOutputTokens,
            signal: AbortSignal.any([signal, flood.signal]),
          })) {
            if (event.type === 'text') {
              const added = text === null;
              text ??= pushPart(state, { type: 'text', step, text: '' });
              text.part.text += event.text;
              changed(state, text.position);
              options.onChange(state, added);
            } else if (event.type === 'tool-call-started') {
              // Counted as they start: a reply that writes calls without end is cut off while it streams.
              if (++started > toolCallCeiling) {
                flood.abort();
                break;
              }
            } else if (event.type === 'tool-call') {
              if (calls.length === toolCallCeiling) {
                flood.abort();
                break;
              }
              calls.push(
                pushPart(state, {
                  type: 'tool-call',
                  step,
                  id: event.id,
                  name: event.name,
                  args: event.input,
                  ok: null,
                  output: null,
                }),
              );
              if (event.error) invalid.set(event.id, event.error);
              options.onChange(state, true);
            } else {
              // Every call is priced as it ends: an answer of several steps costs all of them.
              await countCall(state, options.price, event.usage);
              record(position, requests.reported(request, event.usage));
            }
          }
          break;
        } catch (error) {
          // Refused as too long before anything streamed: once, smaller (PRODUCT.md §6).
          const overflow = signal.aborted ? null : recognizeContextLengthError(error);
          if (overflow && retried) {
            const { estimated, window } = request.context;
            throw tooLong(request.context, overflow.needed ?? estimated, overflow.available ?? window, true);
          }
          if (!overflow || state.parts.length !== partsBefore) throw error;
          retried = true;
          requests.overflowed(request, overflow);
          request = await requests.plan(step, messages, reminders, true, signal);
          await countSummaryCalls(requests.takeSummaryCalls(), state, options);
          record(++position, request.context);
        }
      }
      position++;
      if (flood.signal.aborted) {
        signal.throwIfAborted();
        for (const call of calls) {
          setOutcome(state, call, false, 'Not run: the model asked for too many tool calls at once.');
        }
        options.onChange(state, true);
        return {
          status: 'error',
          error: `The model asked for more than ${toolCallCeiling} tool calls at once, so it was stopped without an answer. Retry, or ask a narrower question.`,
        };
      }
      if (calls.length === 0) return { status: 'complete' };

      const results: LlmToolResult[] = [];
      for (const [index, { part: call, position }] of calls.entries()) {
        signal.throwIfAborted();
        const { registry, ...services } = options.tools;
        const outcome =
          index < toolCallsPerStep
            ? await registry.run(call.name, call.args, invalid.get(call.id) ?? null, {
                ...services,
                vault: options.vault,
                numbers: options.numbers,
                writes: options.writes,
                call,
                shown: () => {
                  changed(state, position);
                  options.onChange(state, true, true);
                },
                signal,
              })
            : failure(
                `Not run: at most ${toolCallsPerStep} tool calls are run in one step. Ask again for the ones still needed, fewer at a time.`,
              );
        setOutcome(state, { part: call, position }, outcome.ok, outcome.output);
        for (const note of outcome.notes) {
          addReference(state, {
            path: note.path,
            title: note.title,
            kind: note.kind,
            toolCallId: call.id,
            document: note.document,
            subpath: note.subpath,
            mode: null,
            tokens: options.tokensOf(note.text),
            summary: options.vault.summary(note.path),
          });
        }
        if (outcome.ok && options.tools.registry.get(call.name)?.documents === 'listed') searched = true;
        results.push({ id: call.id, name: call.name, output: outcome.output, isError: !outcome.ok });
        options.onChange(state, true);
      }
      const toolCalls: LlmToolCall[] = calls.map(({ part: call }) => ({
        id: call.id,
        name: call.name,
        input: sentBack(call.args),
      }));
      messages.push({ role: 'assistant', text: text?.part.text ?? '', toolCalls }, { role: 'tool', results });
    }
    return {
      status: 'error',
      error: `The model kept calling tools and was stopped after ${options.stepLimit} steps without an answer. Retry, or ask a narrower question.`,
    };
  } catch (error) {
    if (signal.aborted) return { status: 'stopped' };
    // The request that did not fit is recorded too: the user sees what filled it.
    if (error instanceof ContextOverflowError) {
      record(error.sent ? lastRecorded : lastRecorded + 1, error.context);
    }
    if (error instanceof ModelError) return { status: 'error', error: error.message };
    return {
      status: 'error',
      error: `The answer failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** Arguments longer than this are sent back to the model shortened: its own call needs no repeating. */
const longestArguments = 2000;

/** A call's arguments as the next request repeats them: whole, or their start with how much was left. */
function sentBack(args: unknown): unknown {
  const text = JSON.stringify(args) ?? '';
  if (text.length <= longestArguments) return args;
  return {
    shortened: `${text.slice(0, longestArguments)}… (${text.length - longestArguments} more characters)`,
  };
}

function pushPart<P extends MessagePart>(state: TurnState, part: P): { part: P; position: number } {
  const position = state.parts.push(part) - 1;
  changed(state, position);
  return { part, position };
}

function changed(state: TurnState, position: number): void {
  state.changed.add(position);
}

function setOutcome(
  state: TurnState,
  { part, position }: { part: ToolCallPart; position: number },
  ok: boolean,
  output: string,
): void {
  part.ok = ok;
  part.output = output;
  changed(state, position);
}

/**
 * One reference per note and kind in a message; the first occurrence wins, but what the note cost adds
 * up: a note found by two searches was received twice.
 */
export function addReference(state: TurnState, reference: ChatReference): void {
  const known = state.references.find(
    (entry) => entry.path === reference.path && entry.kind === reference.kind,
  );
  if (!known) state.references.push(reference);
  else if (reference.tokens !== null) known.tokens = (known.tokens ?? 0) + reference.tokens;
}
