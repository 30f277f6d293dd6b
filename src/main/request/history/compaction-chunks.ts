import type { CompactionPlan } from './compaction-plan';
import type { CutNotice } from '../fit/head-tail';
import { cutHeadTail } from '../fit/head-tail';
import { transcriptLines } from './summary-prompt';
import type { TokenCounter } from '../count/token-counter';

/** A run of older messages summarized in one call, merged into the running summary. */
export interface CompactionChunk {
  messageIds: number[];
  transcript: string;
  /** Local tokens the messages take in a prompt: what the summary of this chunk replaces. */
  tokens: number;
}

/**
 * The plan's messages as transcripts, cut into chunks of at most the plan's chunk size, at block
 * boundaries. A tool result keeps at most a quarter of a chunk, and a block larger than a whole chunk
 * is cut head … tail, so every chunk fits its request.
 */
export function chunkCompaction(
  plan: CompactionPlan,
  counter: TokenCounter,
  cutNotice: CutNotice,
): CompactionChunk[] {
  const toolLimit = Math.floor(plan.chunkTokens / 4);
  const shorten = (text: string, limit: number, toolName?: string) => {
    const source = { kind: 'history' as const, label: toolName ?? 'conversation', toolName, masked: true };
    return cutHeadTail(text, limit, counter, (n) => cutNotice(n, source)).text;
  };

  const chunks: CompactionChunk[] = [];
  let chunk: CompactionChunk | null = null;
  let chunkTokens = 0;
  for (const block of plan.blocks) {
    const lines: string[] = [];
    let tokens = 0;
    const ids: number[] = [];
    for (let i = block.start; i < block.end; i++) {
      const { id, message } = plan.messages[i]!;
      lines.push(
        transcriptLines(
          message,
          (output, name) => shorten(output, toolLimit, name) || `(${name} returned nothing)`,
        ),
      );
      tokens += counter.message(message);
      if (ids.at(-1) !== id) ids.push(id);
    }
    let text = lines.filter(Boolean).join('\n\n');
    let textTokens = counter.text(text);
    if (textTokens > plan.chunkTokens) {
      text = shorten(text, plan.chunkTokens);
      textTokens = counter.text(text);
    }
    if (!chunk || chunkTokens + textTokens > plan.chunkTokens) {
      chunk = { messageIds: [], transcript: '', tokens: 0 };
      chunks.push(chunk);
      chunkTokens = 0;
    }
    chunk.transcript = chunk.transcript ? `${chunk.transcript}\n\n${text}` : text;
    chunkTokens += textTokens + 1;
    chunk.tokens += tokens;
    for (const id of ids) if (chunk.messageIds.at(-1) !== id) chunk.messageIds.push(id);
  }
  return chunks;
}
