import type { LlmMessage } from '../llm/llm-types';
import type { PlacedItem } from './fit/placed-items';
import type { IncludeMode, RequestItem, ToolSchema } from './context-types';
import { joinCost, messageOverhead, replyPriming, type TokenCounter } from './count/token-counter';

export interface PackInput {
  systemPrompt: string;
  rules: readonly PlacedItem[];
  tools: readonly { schema: ToolSchema; include: IncludeMode; score?: number; tokens: number }[];
  summary: { text: string; coveredIds: readonly number[] } | null;
  history: {
    messages: readonly LlmMessage[];
    /** Each message's local tokens with its overhead, as counted when the history was planned. */
    messageTokens: readonly number[];
    sentIds: number[];
    form: RequestItem['form'];
  };
  /** The custom agent prompt: a user message just above the latest question. */
  agentPrompt?: string | null;
  /** Pinned notes and attachments, sent just before the user's message. */
  before: readonly PlacedItem[];
  current: { id: number; text: string };
  /** References of the user's message, sent right after it. */
  references: readonly PlacedItem[];
  /** This turn's steps: each an assistant message with tool calls and its results. */
  turn: readonly { messages: readonly LlmMessage[]; form: RequestItem['form'] }[];
  reminders: readonly string[];
}

export interface PackedRequest {
  system: string;
  messages: LlmMessage[];
  items: RequestItem[];
  /** The sum of the items' tokens: the request's local estimate. */
  tokens: number;
}

/** Wraps the summary so the model reads it as an account of earlier turns, not as the user speaking. */
export function summaryMessage(summary: string): string {
  return `<conversation-summary>\nThe earlier part of this conversation, summarized:\n\n${summary}\n</conversation-summary>`;
}

/** The user's standing instructions for the assistant, set apart from what they ask now. */
export function agentPromptMessage(prompt: string): string {
  return `<agent-instructions>\n${prompt}\n</agent-instructions>`;
}

export function reminderText(reminder: string): string {
  return `<system-reminder>${reminder}</system-reminder>`;
}

/**
 * Lays the chosen parts out as one request in the order of the product's prompt assembly, and
 * attributes every token to an item: the system message and reply priming to the system prompt, each
 * message's overhead to the item that opens it. Consecutive user texts are joined into one message,
 * since several servers' chat templates refuse two user messages in a row.
 */
export function packRequest(input: PackInput, counter: TokenCounter): PackedRequest {
  const messages: LlmMessage[] = [];
  const items: RequestItem[] = [];
  const item = (entry: Omit<RequestItem, 'tokens'>): RequestItem => {
    const created = { ...entry, tokens: 0 };
    items.push(created);
    return created;
  };
  const addUser = (text: string, to: RequestItem, tokens = counter.text(text)) => {
    const last = messages.at(-1);
    if (last?.role === 'user') {
      messages[messages.length - 1] = { role: 'user', text: `${last.text}\n\n${text}` };
      to.tokens += joinCost + tokens;
    } else {
      messages.push({ role: 'user', text });
      to.tokens += messageOverhead + tokens;
    }
  };
  /** `tokens`: the message's count with its overhead, when known. */
  const add = (message: LlmMessage, to: RequestItem, tokens?: number) => {
    if (message.role === 'user') {
      return addUser(message.text, to, tokens === undefined ? undefined : tokens - messageOverhead);
    }
    messages.push(message);
    to.tokens += tokens ?? counter.message(message);
  };
  const fromPlaced = (placed: PlacedItem) =>
    item({
      kind: placed.input.kind,
      label: placed.input.label,
      path: placed.input.path,
      include: placed.input.include,
      score: placed.input.score,
      form: placed.form,
      ...(placed.reason ? { reason: placed.reason } : {}),
    });

  const system = item({ kind: 'system', label: 'System prompt', include: 'always', form: 'whole' });
  system.tokens = messageOverhead + replyPriming + counter.text(input.systemPrompt);
  const systemTexts = [input.systemPrompt];
  for (const rule of input.rules) {
    fromPlaced(rule).tokens = joinCost + rule.tokens;
    systemTexts.push(rule.text);
  }
  for (const tool of input.tools) {
    const { schema, include, score } = tool;
    item({ kind: 'tools', label: schema.name, include, score, form: 'whole' }).tokens = tool.tokens;
  }
  if (input.summary) {
    const ids = [...input.summary.coveredIds];
    const label = `Summary of ${ids.length} earlier message${ids.length === 1 ? '' : 's'}`;
    const entry = item({ kind: 'summary', label, include: 'history', form: 'whole', messageIds: ids });
    addUser(summaryMessage(input.summary.text), entry);
  }
  if (input.history.messages.length > 0) {
    const ids = input.history.sentIds;
    const label = `${ids.length} earlier message${ids.length === 1 ? '' : 's'}`;
    const entry = item({
      kind: 'history',
      label,
      include: 'history',
      form: input.history.form,
      messageIds: ids,
    });
    input.history.messages.forEach((message, index) =>
      add(message, entry, input.history.messageTokens[index]),
    );
  }
  if (input.agentPrompt) {
    const entry = item({ kind: 'agent-prompt', label: 'Agent prompt', include: 'always', form: 'whole' });
    addUser(agentPromptMessage(input.agentPrompt), entry);
  }
  for (const placed of input.before) addUser(placed.text, fromPlaced(placed));
  const current = item({
    kind: 'current',
    label: 'Your message',
    include: 'direct',
    form: 'whole',
    messageIds: [input.current.id],
  });
  addUser(input.current.text, current);
  for (const placed of input.references) addUser(placed.text, fromPlaced(placed));
  for (const step of input.turn) {
    const calls = step.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
    const label = calls.map((call) => call.name).join(', ') || 'Tool step';
    const entry = item({ kind: 'tool-results', label, include: 'retrieved', form: step.form });
    for (const message of step.messages) add(message, entry);
  }
  if (input.reminders.length > 0) {
    const entry = item({ kind: 'system', label: 'Reminders', include: 'always', form: 'whole' });
    for (const reminder of input.reminders) addUser(reminderText(reminder), entry);
  }
  const tokens = items.reduce((sum, entry) => sum + entry.tokens, 0);
  return { system: systemTexts.join('\n\n'), messages, items, tokens };
}
