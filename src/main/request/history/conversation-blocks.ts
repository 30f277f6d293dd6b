import type { LlmMessage } from '../../llm/llm-types';
import type { ConversationMessage } from '../context-types';

/**
 * Messages that go into a request together or not at all: a user message; an assistant message with
 * the tool results that answer its calls; a plain assistant message. Providers refuse a tool result
 * without its call and a call without its result, so history is kept or dropped by block.
 */
export interface Block {
  /** Index of its first message in the history, and one past its last. */
  start: number;
  end: number;
  /** A user message: where a turn, and a kept history, may begin. */
  startsTurn: boolean;
  /** Holds tool results. */
  hasResults: boolean;
  /** Tool calls with no results after them (an answer stopped mid-way): sent as the text alone. */
  unanswered: boolean;
  /** Tool results with no call before them: never sent. */
  orphan: boolean;
  /** Its tool results were followed by a later assistant message, which answered from them. */
  consumed: boolean;
}

export function blocksOf(history: readonly ConversationMessage[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < history.length) {
    const message = history[i]!.message;
    const block: Block = {
      start: i,
      end: i + 1,
      startsTurn: message.role === 'user',
      hasResults: message.role === 'tool',
      unanswered: false,
      orphan: message.role === 'tool',
      consumed: false,
    };
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      while (block.end < history.length && history[block.end]!.message.role === 'tool') block.end++;
      block.hasResults = block.end > i + 1;
      block.unanswered = !block.hasResults;
    }
    blocks.push(block);
    i = block.end;
  }
  let answered = false;
  for (let b = blocks.length - 1; b >= 0; b--) {
    const block = blocks[b]!;
    if (block.hasResults) block.consumed = answered;
    const first = history[block.start]!.message;
    if (first.role === 'assistant') answered = true;
  }
  return blocks;
}

/** Indexes of the blocks that start turns (user messages), in order. */
export function turnStarts(blocks: readonly Block[]): number[] {
  const starts: number[] = [];
  for (let b = 0; b < blocks.length; b++) if (blocks[b]!.startsTurn) starts.push(b);
  return starts;
}

/** The messages of a block as they can be sent; empty when nothing of it can be. */
export function sendable(history: readonly ConversationMessage[], block: Block): LlmMessage[] {
  if (block.orphan) return [];
  const first = history[block.start]!.message;
  if (block.unanswered && first.role === 'assistant') {
    return first.text.trim() === '' ? [] : [{ role: 'assistant', text: first.text, toolCalls: [] }];
  }
  const messages: LlmMessage[] = [];
  for (let i = block.start; i < block.end; i++) messages.push(history[i]!.message);
  return messages;
}
