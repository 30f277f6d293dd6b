import type { ChatMessage, ChatReference, ChatSession, ReferenceKind } from '../../../../shared/chat-domain';

/** One note in the panel, with every way the shown turns used it. */
export interface ReferenceEntry {
  path: string;
  title: string;
  kinds: ReferenceKind[];
  summary: string;
  /** Tokens the note cost where it was given inline or as a summary. */
  tokens: number | null;
  subpath: string | null;
  /** 1-based numbers of the turns (question and answer) that used it. */
  turns: number[];
  /** The alias a question named the note by, when one did. */
  viaAlias?: string;
  /** A passage of the note a question asked about: the entry opens the note there. */
  passage?: string;
}

const kindOrder: ReferenceKind[] = ['selection', 'web', 'direct', 'broken', 'read', 'search-hit', 'cited'];

/** The turn number of every message: a turn is a question and the answers that follow it. */
function turnsOf(messages: ChatMessage[]): Map<number, number> {
  const turns = new Map<number, number>();
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'user') turn++;
    turns.set(message.id, Math.max(turn, 1));
  }
  return turns;
}

function collect(messages: ChatMessage[], turns: Map<number, number>): ReferenceEntry[] {
  const entries = new Map<string, ReferenceEntry>();
  const add = (reference: ChatReference, turn: number) => {
    const entry =
      entries.get(reference.path) ??
      ({
        path: reference.path,
        title: reference.title,
        kinds: [],
        summary: '',
        tokens: null,
        subpath: null,
        turns: [],
      } as ReferenceEntry);
    if (!entry.kinds.includes(reference.kind)) entry.kinds.push(reference.kind);
    if (!entry.turns.includes(turn)) entry.turns.push(turn);
    entry.summary ||= reference.summary;
    if (reference.kind === 'selection') {
      entry.passage ??= reference.summary;
      entry.subpath = reference.subpath;
    }
    entry.subpath ??= reference.subpath;
    entry.viaAlias ??= reference.viaAlias;
    if (reference.tokens !== null) entry.tokens = (entry.tokens ?? 0) + reference.tokens;
    entries.set(reference.path, entry);
  };
  for (const message of messages)
    for (const reference of message.references) add(reference, turns.get(message.id)!);
  for (const entry of entries.values())
    entry.kinds.sort((a, b) => kindOrder.indexOf(a) - kindOrder.indexOf(b));
  return [...entries.values()];
}

/** The notes one answer used: its own references and those of the question it answers. */
export function answerReferences(session: ChatSession, messageId: number | null): ReferenceEntry[] {
  const { messages } = session;
  const answer =
    messageId === null
      ? messages.filter((message) => message.role === 'assistant').at(-1)
      : messages.find((message) => message.id === messageId);
  if (!answer) return [];
  const index = messages.indexOf(answer);
  const question = messages
    .slice(0, index)
    .filter((message) => message.role === 'user')
    .at(-1);
  const turns = turnsOf(messages);
  return collect(question ? [question, answer] : [answer], turns);
}

/** Every note the session used, across all turns. */
export function sessionReferences(session: ChatSession): ReferenceEntry[] {
  return collect(session.messages, turnsOf(session.messages));
}
