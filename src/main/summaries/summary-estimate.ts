import type { ModelSettings } from '../../shared/chat-domain';
import { summariesWithoutAsking, type SummaryEstimate } from '../../shared/model-domain';
import type { PriceQuote } from '../../shared/cost/cost-domain';
import { quotePrice } from '../llm/model-prices';
import { summaryMessages, summarySystemPrompt } from './summary-prompt';
import type { SummaryWork } from './summary-queue';

/**
 * What one summary is allowed in the estimate: one or two sentences are 30 to 80 tokens in most
 * languages; the allowance errs high, since a model that thinks aloud first writes more.
 */
export const summaryReplyTokens = 100;

export interface SummaryEstimateSources {
  /** The notes a run would summarize (SummaryQueue.work). */
  work: SummaryWork;
  readNote: (path: string) => Promise<{ content: string }>;
  /** The request module's one token count. */
  tokens: (text: string) => number;
  /** The server, and the model that writes summaries there. */
  settings: Pick<ModelSettings, 'baseUrl'>;
  model: string;
  /** What the model's calls cost (`PriceBook.quote`); without it, the list price or none. */
  price?: PriceQuote;
}

/**
 * The estimate of a summary run, said before it starts: each note to do is read and its request (the
 * summary prompt and the note as the model would get it) counted; a note that cannot be read counts its
 * lead. The cost is given only for a model whose price Kasten knows (the user's, the server's, the list's).
 */
export async function estimateSummaries(sources: SummaryEstimateSources): Promise<SummaryEstimate> {
  const { work, readNote, tokens, settings, model } = sources;
  let inputTokens = 0;
  for (const note of work.toDo) {
    const content = await readNote(note.path).then(
      (read) => read.content,
      () => note.lead,
    );
    const messages = summaryMessages({ title: note.title, content });
    const text = messages.map((message) => ('text' in message ? message.text : '')).join('\n');
    inputTokens += tokens(`${summarySystemPrompt}\n${text}`);
  }
  const outputTokens = work.toDo.length * summaryReplyTokens;
  const quote = sources.price ?? quotePrice(settings, model);
  const price = quote.kind === 'priced' ? quote : null;
  return {
    model,
    server: settings.baseUrl,
    hosted: quote.kind !== 'local',
    notes: work.toDo.length,
    cached: work.cached,
    inputTokens,
    outputTokens,
    replyTokens: summaryReplyTokens,
    cost: price
      ? {
          usd: (inputTokens * price.price.input + outputTokens * price.price.output) / 1_000_000,
          inputPerMillion: price.price.input,
          outputPerMillion: price.price.output,
          source: price.reference ?? '',
          priceSource: price.source,
        }
      : null,
    needsConfirmation: work.toDo.length > summariesWithoutAsking,
  };
}
