import { useMemo } from 'react';
import type { ChatMessage } from '../../../../shared/chat-domain';
import { usageTotal } from '../../../../shared/cost/cost-math';
import { totalCostText } from '../../../../shared/cost/cost-text';
import { exactTokens } from '../context/token-format';

/** The chat's cost so far in its header: its answers' costs as each was stored; nothing for a local server. */
export function ChatCost({ messages }: { messages: readonly ChatMessage[] }) {
  const total = useMemo(() => usageTotal(messages.map((message) => message.usage)), [messages]);
  const text = totalCostText(total);
  if (text === null) return null;
  const tokens = `${exactTokens(total.inputTokens)} tokens in (${exactTokens(total.cachedInputTokens)} from the cache), ${exactTokens(total.outputTokens)} out`;
  return (
    <span className="chat-cost small muted" data-testid="chat-cost" title={`This chat so far: ${tokens}`}>
      <span className="visually-hidden">This chat cost </span>
      {text}
    </span>
  );
}
