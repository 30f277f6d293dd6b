import type { ModelSettings } from '../../shared/chat-domain';
import { summariesWithoutAsking, type SummaryEstimate } from '../../shared/model-domain';
import { isLocalServer, listPrice } from '../llm/model-prices';
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
}

/**
 * The estimate of a summary run, said before it starts: each note to do is read and its request (the
 * summary prompt and the note as the model would get it) counted; a note that cannot be read counts its
 * lead. The cost is given only for a hosted model whose list price Kasten knows.
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
  const hosted = !isLocalServer(settings.baseUrl);
  const price = hosted ? listPrice(settings, model) : null;
  return {
    model,
    server: settings.baseUrl,
    hosted,
    notes: work.toDo.length,
    cached: work.cached,
    inputTokens,
    outputTokens,
    replyTokens: summaryReplyTokens,
    cost: price
      ? {
          usd: (inputTokens * price.input + outputTokens * price.output) / 1_000_000,
          inputPerMillion: price.input,
          outputPerMillion: price.output,
          source: price.source,
        }
      : null,
    needsConfirmation: work.toDo.length > summariesWithoutAsking,
  };
}
