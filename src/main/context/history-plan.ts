import type { LlmMessage } from '../llm/llm-types';
import type { ContextOptions } from './context-options';
import type { ContextStrategy, ConversationMessage, HistoryAttachment } from './context-types';
import { blocksOf, sendable, turnStarts, type Block } from './conversation-blocks';
import { sourceKey } from './head-tail';
import type { TokenCounter } from './token-counter';

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
  const masking = (b: number, on: boolean) => on && b < tailStart && blocks[b]!.consumed;
  const exceeds = (limit: number, mask: boolean) => {
    let sum = 0;
    for (let b = blocks.length - 1; b >= 0 && sum <= limit; b--) sum += prepare(b, masking(b, mask)).tokens;
    return sum > limit;
  };
  const mask = input.strategy === 'hybrid' && (input.aggressive || exceeds(input.thresholdRoom, false));
  const over = input.strategy !== 'discard' && exceeds(input.thresholdRoom, mask);

  let first = blocks.length;
  let used = 0;
  for (let b = blocks.length - 1; b >= 0; b--) {
    const tokens = prepare(b, masking(b, mask)).tokens;
    if (used + tokens > input.room) break;
    used += tokens;
    first = b;
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
    over,
    blocks,
    tailStart,
    blockTokens: (b) => prepare(b, masking(b, mask)).tokens,
  };
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const ids = b < first ? plan.omittedIds : plan.sentIds;
    for (let i = block.start; i < block.end; i++) {
      const id = history[i]!.id;
      if (ids.at(-1) !== id) ids.push(id);
    }
    if (b < first) continue;
    const entry = prepare(b, masking(b, mask));
    plan.messages.push(...entry.messages);
    plan.messageTokens.push(...entry.messageTokens);
    plan.tokens += entry.tokens;
    plan.masked += entry.masked;
    plan.cut += entry.cut;
  }
  return plan;
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
