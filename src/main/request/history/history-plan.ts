import type { LlmMessage } from '../../llm/llm-types';
import type { ContextOptions } from '../context-options';
import type { ContextStrategy, ConversationMessage, HistoryAttachment } from '../context-types';
import { blocksOf, sendable, turnStarts, type Block } from './conversation-blocks';
import { sourceKey } from '../fit/head-tail';
import type { TokenCounter } from '../count/token-counter';

export interface HistoryInput {
  /** The conversation before the current message, without what the summary covers. */
  history: readonly ConversationMessage[];
  strategy: ContextStrategy;
  aggressive: boolean;
  /** Local tokens the history may take in this request. */
  room: number;
  /** Local tokens of history past which the request is over the compaction threshold (may be < 0). */
  thresholdRoom: number;
  itemCap: number;
  tailTokens: number;
  options: Pick<ContextOptions, 'tailTurns' | 'maskedTokens' | 'cutNotice'>;
  counter: TokenCounter;
  /** History tokens between two places where masking and dropping may cut: they cut this much at once. */
  quantum: number;
  /** How the chat's previous request cut the history: this one cuts no earlier, so the prefix holds. */
  previous?: HistoryCut | null;
}

/** Where a request's history started, and up to where it masked old tool results. */
export interface HistoryCut {
  /** The first message sent; null when none was. */
  firstId: number | null;
  /** Tool results of messages before this one were masked; null when none were. */
  maskedBefore: number | null;
}

interface Prepared {
  messages: LlmMessage[];
  messageTokens: number[];
  tokens: number;
  masked: number;
  cut: number;
}

export interface HistoryPlan {
  messages: LlmMessage[];
  /** Each message's local tokens, with its overhead. */
  messageTokens: number[];
  sentIds: number[];
  omittedIds: number[];
  tokens: number;
  /** Old tool results shortened to stubs, and tool results cut to the item cap, among those sent. */
  masked: number;
  cut: number;
  /** Tool results of messages before this one are masked; null when none are. */
  maskedBefore: number | null;
  /** The history is past the threshold even after masking: compacting would help. */
  over: boolean;
  blocks: Block[];
  /** The first block of the verbatim tail (the last turns); blocks before it may be summarized. */
  tailStart: number;
  /** Local tokens of a block as it is (or would be) sent. */
  blockTokens: (block: number) => number;
}

/**
 * Decides which earlier messages go into the request: newest first, whole blocks only, starting at a
 * user message. `hybrid` first shortens tool results older than the tail that the model already
 * answered from, when the history is past the threshold. Counting stops where the room ends, so a long
 * conversation costs what fits in the window, not its length.
 *
 * Masking and dropping cut only at cut points, a quantum of history apart, and never back before where
 * the previous request cut: past a threshold they cut a chunk at once, and the requests after it append
 * to the same prefix again, which a server can reuse.
 */
export function planHistory(input: HistoryInput): HistoryPlan {
  const { history, counter } = input;
  const blocks = blocksOf(history);
  const prepared = new Map<number, Prepared>();

  const prepare = (b: number, mask: boolean) => {
    const key = mask ? -b - 1 : b;
    let entry = prepared.get(key);
    if (!entry) {
      entry = { messages: [], messageTokens: [], tokens: 0, masked: 0, cut: 0 };
      const block = blocks[b]!;
      for (const message of sendable(history, block)) {
        const attachments = block.startsTurn ? history[block.start]!.attachments : undefined;
        const sent =
          message.role === 'tool'
            ? shortenResults(message, mask, entry, input)
            : message.role === 'user' && attachments?.length
              ? withAttachments(message.text, attachments, mask, entry, input)
              : message;
        const tokens = counter.message(sent);
        entry.messages.push(sent);
        entry.messageTokens.push(tokens);
        entry.tokens += tokens;
      }
      prepared.set(key, entry);
    }
    return entry;
  };

  const tailStart = findTail(blocks, (b) => prepare(b, false).tokens, input);
  const points = cutPoints(blocks, (b) => prepare(b, false).tokens, input.quantum);
  // Old tool results the model answered from, and the files of old questions, give way to their stubs.
  const maskable = (b: number) =>
    blocks[b]!.consumed || (blocks[b]!.startsTurn && !!history[blocks[b]!.start]!.attachments?.length);
  const maskedUpTo = (end: number) => (b: number) => b < end && maskable(b);
  const exceeds = (limit: number, end: number) => {
    const masked = maskedUpTo(end);
    let sum = 0;
    for (let b = blocks.length - 1; b >= 0 && sum <= limit; b--) sum += prepare(b, masked(b)).tokens;
    return sum > limit;
  };
  // What the previous request masked stays masked: unmasking would change the prefix back. Past the
  // threshold, masking reaches the last cut point the tail has passed (the retry: the tail), at once.
  const kept =
    input.previous?.maskedBefore == null ? 0 : floorBlock(history, blocks, input.previous.maskedBefore);
  const furthest = input.aggressive ? tailStart : (points.findLast((point) => point <= tailStart) ?? 0);
  const maskEnd =
    input.strategy !== 'hybrid'
      ? 0
      : input.aggressive || exceeds(input.thresholdRoom, kept)
        ? Math.max(kept, furthest)
        : kept;
  const isMasked = maskedUpTo(maskEnd);
  const over = input.strategy !== 'discard' && exceeds(input.thresholdRoom, maskEnd);

  const tokensFrom = (start: number) => {
    let sum = 0;
    for (let b = blocks.length - 1; b >= start && sum <= input.room; b--)
      sum += prepare(b, isMasked(b)).tokens;
    return sum;
  };
  const floor = floorBlock(history, blocks, input.previous?.firstId ?? null);
  let first = [floor, ...points.filter((point) => point > floor)].find(
    (point) => tokensFrom(point) <= input.room,
  );
  if (first === undefined) {
    // Not even the newest cut point fits: as many of the newest blocks as the room holds.
    first = blocks.length;
    let used = 0;
    for (let b = blocks.length - 1; b >= floor; b--) {
      const tokens = prepare(b, isMasked(b)).tokens;
      if (used + tokens > input.room) break;
      used += tokens;
      first = b;
    }
  }
  while (first < blocks.length && !blocks[first]!.startsTurn) first++;

  const plan: HistoryPlan = {
    messages: [],
    messageTokens: [],
    sentIds: [],
    omittedIds: [],
    tokens: 0,
    masked: 0,
    cut: 0,
    maskedBefore:
      maskEnd === 0 ? null : (history[blocks[maskEnd]?.start ?? -1]?.id ?? history.at(-1)!.id + 1),
    over,
    blocks,
    tailStart,
    blockTokens: (b) => prepare(b, isMasked(b)).tokens,
  };
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const ids = b < first ? plan.omittedIds : plan.sentIds;
    for (let i = block.start; i < block.end; i++) {
      const id = history[i]!.id;
      if (ids.at(-1) !== id) ids.push(id);
    }
    if (b < first) continue;
    const entry = prepare(b, isMasked(b));
    plan.messages.push(...entry.messages);
    plan.messageTokens.push(...entry.messageTokens);
    plan.tokens += entry.tokens;
    plan.masked += entry.masked;
    plan.cut += entry.cut;
  }
  return plan;
}

/**
 * The turn starts where a cut may fall: the first turn, then each one past which the history (counted
 * from its start, as sent unmasked) has grown by another `quantum`. They stay where they are as the chat
 * goes on, since earlier blocks do not change.
 */
function cutPoints(blocks: readonly Block[], tokensOf: (b: number) => number, quantum: number): number[] {
  const points: number[] = [];
  let sum = 0;
  let next = 0;
  for (let b = 0; b < blocks.length; b++) {
    if (blocks[b]!.startsTurn && sum >= next) {
      points.push(b);
      next = (Math.floor(sum / quantum) + 1) * quantum;
    }
    sum += tokensOf(b);
  }
  return points;
}

/** The block of the message the previous request started with (0 when it is no longer in the history). */
function floorBlock(
  history: readonly ConversationMessage[],
  blocks: readonly Block[],
  firstId: number | null,
) {
  if (firstId === null) return 0;
  const index = blocks.findIndex((block) => history[block.start]!.id >= firstId);
  return index === -1 ? blocks.length : index;
}

/**
 * The last `tailTurns` turns that fit the tail's bound together, and always the latest turn, so a
 * compaction never summarizes the conversation away to the last word; its first block.
 */
function findTail(blocks: readonly Block[], tokensOf: (b: number) => number, input: HistoryInput): number {
  const starts = turnStarts(blocks);
  let tailStart = blocks.length;
  let tokens = 0;
  for (let t = starts.length - 1; t >= 0 && starts.length - t <= input.options.tailTurns; t--) {
    const start = starts[t]!;
    let turn = 0;
    for (let b = start; b < tailStart; b++) turn += tokensOf(b);
    if (tokens + turn > input.tailTokens && t < starts.length - 1) break;
    tokens += turn;
    tailStart = start;
  }
  return tailStart;
}

/**
 * A question with the files sent with it, just before its words: whole, or as stubs that say how to
 * read them again once they are old and the history is past the threshold (as tool results are masked),
 * or when one alone is larger than an item may be.
 */
function withAttachments(
  words: string,
  attachments: readonly HistoryAttachment[],
  mask: boolean,
  stats: { masked: number },
  input: HistoryInput,
): LlmMessage {
  const texts = attachments.map((attachment) => {
    if (!mask && input.counter.text(attachment.text) <= input.itemCap) return attachment.text;
    stats.masked++;
    return attachment.stub;
  });
  return { role: 'user', text: [...texts, words].join('\n\n') };
}

function shortenResults(
  message: Extract<LlmMessage, { role: 'tool' }>,
  mask: boolean,
  stats: { masked: number; cut: number },
  input: HistoryInput,
): LlmMessage {
  let changed = false;
  const limit = mask ? input.options.maskedTokens : input.itemCap;
  const results = message.results.map((result) => {
    const source = { kind: 'history' as const, label: result.name, toolName: result.name, masked: mask };
    const notice = (n: number) => input.options.cutNotice(n, source);
    const cut = input.counter.cut(result.output, limit, notice, sourceKey(source));
    if (cut.omitted === 0) return result;
    changed = true;
    if (mask) stats.masked++;
    else stats.cut++;
    return { ...result, output: cut.text };
  });
  return changed ? { role: 'tool', results } : message;
}
