import type { ChatMessage, MessagePart, ToolCallPart } from '../../../shared/chat-domain';
import type { ConversationMessage, HistoryAttachment } from '../context-types';
import type { LlmMessage } from '../../llm/llm-types';

/** Stands for an answer that failed or was stopped before it said anything. */
export const noAnswerStub = '(No answer was given to this message: the reply failed or was stopped.)';

/**
 * The stored conversation as the model is sent it: each question with the notes it linked, each answer
 * with its tool steps (calls with their results, never one without the other), and the files attached to a
 * question (see `attachments`). Failed answers and the one being written are left out; a question left
 * without an answer is followed by a short stub saying so, so that it stays a turn of its own (chat
 * templates want user and assistant to alternate) and the next question is not read as part of it. One
 * database message may become several model messages.
 */
export function conversationOf(
  messages: readonly ChatMessage[],
  attachments: (messageId: number) => HistoryAttachment[] = () => [],
): ConversationMessage[] {
  const conversation: ConversationMessage[] = [];
  // The failed answer a stub stands for, when the last question has none.
  let unanswered: number | null = null;
  const answerLast = () => {
    if (conversation.at(-1)?.message.role !== 'user') return;
    const id = unanswered ?? conversation.at(-1)!.id;
    conversation.push({ id, message: { role: 'assistant', text: noAnswerStub, toolCalls: [] } });
  };
  for (const message of messages) {
    if (message.role === 'user') {
      answerLast();
      unanswered = null;
      const files = attachments(message.id);
      conversation.push({
        id: message.id,
        message: { role: 'user', text: userText(message.parts) },
        ...(files.length > 0 ? { attachments: files } : {}),
      });
    } else if (message.status === 'error') {
      unanswered ??= message.id;
    } else if (message.status !== 'streaming') {
      for (const step of answerSteps(message.parts)) conversation.push({ id: message.id, message: step });
      if (conversation.at(-1)?.message.role !== 'user') unanswered = null;
      else unanswered ??= message.id;
    }
  }
  // The history ends before the question being answered: a question still unanswered gets its stub.
  answerLast();
  return conversation;
}

/**
 * A question's parts with its linked notes as its answer's first request sent them, or null when they
 * are stored so already. Later requests replay the question from its parts: byte for byte as it was
 * sent, the server finds the prefix it processed.
 */
export function withSentReferences(parts: readonly MessagePart[], sent: string): MessagePart[] | null {
  const stored = parts.filter((part) => part.type === 'context');
  if (stored.length === (sent === '' ? 0 : 1) && (sent === '' || stored[0]?.text === sent)) return null;
  const others: MessagePart[] = parts.filter((part) => part.type !== 'context');
  const words = others.findIndex((part) => part.type === 'text');
  if (sent !== '') others.splice(words + 1, 0, { type: 'context', step: 0, text: sent });
  return others;
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
