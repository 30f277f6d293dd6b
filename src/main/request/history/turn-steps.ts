import type { LlmMessage } from '../../llm/llm-types';
import type { ContextOptions } from '../context-options';
import type { RequestItem } from '../context-types';
import { sourceKey } from '../fit/head-tail';
import type { TokenCounter } from '../count/token-counter';

export interface TurnStep {
  messages: LlmMessage[];
  form: RequestItem['form'];
  tokens: number;
}

/**
 * This turn's earlier agent-loop steps, each an assistant message and the results of its calls. Every
 * result is held to the item cap; with `mask`, results of steps the model has already answered from
 * (every step but the last) are shortened to stubs, which is how a long tool loop keeps fitting.
 */
export function prepareTurn(
  turn: readonly LlmMessage[],
  itemCap: number,
  mask: boolean,
  options: Pick<ContextOptions, 'maskedTokens' | 'cutNotice'>,
  counter: TokenCounter,
): TurnStep[] {
  const steps: LlmMessage[][] = [];
  for (const message of turn) {
    if (message.role !== 'tool' || steps.length === 0) steps.push([]);
    steps.at(-1)!.push(message);
  }
  return steps.map((messages, index) => {
    const masked = mask && index < steps.length - 1;
    const limit = masked ? options.maskedTokens : itemCap;
    const step: TurnStep = { messages: [], form: 'whole', tokens: 0 };
    for (const message of messages) {
      let sent = message;
      if (message.role === 'tool') {
        const results = message.results.map((result) => {
          const source = { kind: 'tool-results' as const, label: result.name, toolName: result.name, masked };
          const notice = (n: number) => options.cutNotice(n, source);
          const cut = counter.cut(result.output, limit, notice, sourceKey(source));
          if (cut.omitted === 0) return result;
          step.form = masked ? 'masked' : 'cut';
          return { ...result, output: cut.text };
        });
        sent = { role: 'tool', results };
      }
      step.messages.push(sent);
      step.tokens += counter.message(sent);
    }
    return step;
  });
}
