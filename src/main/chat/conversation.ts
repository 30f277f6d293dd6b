import type { ChatMessage, MessagePart, ToolCallPart } from '../../shared/chat-domain';
import type { ConversationMessage, HistoryAttachment } from '../context/context-types';
import type { LlmMessage } from '../llm/llm-types';

/**
 * The stored conversation as the model is sent it: each question with the notes it linked, each answer
 * with its tool steps (calls with their results, never one without the other), and the files attached to a
 * question (see `attachments`). Failed answers and the
 * one being written are left out. One database message may become several model messages.
 */
export function conversationOf(
  messages: readonly ChatMessage[],
  attachments: (messageId: number) => HistoryAttachment[] = () => [],
): ConversationMessage[] {
  const conversation: ConversationMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const files = attachments(message.id);
      conversation.push({
        id: message.id,
        message: { role: 'user', text: userText(message.parts) },
        ...(files.length > 0 ? { attachments: files } : {}),
      });
    } else if (message.status !== 'error' && message.status !== 'streaming') {
      for (const step of answerSteps(message.parts)) conversation.push({ id: message.id, message: step });
    }
  }
  return conversation;
}

/** A question as the model was given it: the user's words, then the notes they linked. */
export function userText(parts: readonly MessagePart[]): string {
  return parts
    .map((part) => (part.type === 'text' || part.type === 'context' ? part.text : ''))
    .filter(Boolean)
    .join('\n\n');
}

function answerSteps(parts: readonly MessagePart[]): LlmMessage[] {
  const steps = new Map<number, { text: string; calls: ToolCallPart[] }>();
  for (const part of parts) {
    const step = steps.get(part.step) ?? { text: '', calls: [] };
    steps.set(part.step, step);
    if (part.type === 'text') step.text += part.text;
    // A call that never ran (the answer stopped first) has no result to send with it.
    else if (part.type === 'tool-call' && part.ok !== null) step.calls.push(part);
  }
  const messages: LlmMessage[] = [];
  for (const [, { text, calls }] of [...steps].sort(([a], [b]) => a - b)) {
    if (calls.length === 0) {
      if (text.trim() !== '') messages.push({ role: 'assistant', text, toolCalls: [] });
      continue;
    }
    messages.push(
      {
        role: 'assistant',
        text,
        toolCalls: calls.map((call) => ({ id: call.id, name: call.name, input: call.args })),
      },
      {
        role: 'tool',
        results: calls.map((call) => ({
          id: call.id,
          name: call.name,
          output: call.output ?? '',
          isError: call.ok === false,
        })),
      },
    );
  }
  return messages;
}
