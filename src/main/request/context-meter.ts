import type { ChatMessage, ContextWindow } from '../../shared/chat-domain';
import {
  contextLevel,
  type CalibrationInfo,
  type ContextStatus,
  type PartTokens,
  type RequestContext,
} from '../../shared/context-domain';
import type { ConversationMessage, ModelProfile } from './context-types';
import type { StoredAttachment } from '../items/attachment-store';
import type { AnswerItems } from './sources/answer-items';
import { toolSchemasOf } from './sources/tool-schemas';

/**
 * The context meter's reading of the next request: its estimate and parts, the share of what is being
 * typed (the words, the notes they link, the files read for them), and what the server last reported.
 */
export function meterReading(
  request: RequestContext,
  facts: {
    profile: ModelProfile;
    window: ContextWindow;
    /** Whether anything is being typed or attached. */
    typed: boolean;
    messages: readonly ChatMessage[];
    calibration: CalibrationInfo;
    compactions: number;
  },
): ContextStatus {
  const draftTokens = facts.typed
    ? request.items
        .filter(
          (item) =>
            item.kind === 'current' ||
            item.kind === 'attachment' ||
            (item.kind === 'reference' && item.include === 'direct'),
        )
        .reduce((sum, item) => sum + item.tokens, 0)
    : 0;
  const reported = facts.messages
    .flatMap((message) => message.requests)
    .findLast((entry) => entry.reported !== null);
  return {
    model: facts.profile.model,
    window: facts.window.tokens,
    windowSource: facts.window.source,
    windowNamedAt: facts.window.namedAt ?? null,
    usable: request.usable,
    estimated: request.estimated,
    draftTokens,
    parts: facts.typed ? request.parts : framingAsOverhead(request.parts),
    pinned: request.items.flatMap((item) =>
      item.kind === 'pinned' && item.path !== undefined ? [{ path: item.path, tokens: item.tokens }] : [],
    ),
    reported: reported?.reported ?? null,
    calibration: facts.calibration,
    strategy: request.strategy,
    compactions: facts.compactions,
    level: contextLevel(request.estimated, request.usable),
  };
}

/**
 * With nothing typed, the current message is only the framing every message has: it is counted with the
 * system prompt, the fixed overhead of a request, so the meter shows no message where there is none.
 */
function framingAsOverhead(parts: readonly PartTokens[]): PartTokens[] {
  const framing = parts.find((entry) => entry.part === 'current')?.tokens ?? 0;
  if (!parts.some((entry) => entry.part === 'system')) return [...parts];
  return parts.map((entry) =>
    entry.part === 'current'
      ? { part: 'current', tokens: 0 }
      : entry.part === 'system'
        ? { part: 'system', tokens: entry.tokens + framing }
        : entry,
  );
}

/** An answer's items as a key: the tools as they are sent, the rest as it is (functions left out). */
export function answerItemsKey(extras: AnswerItems): unknown {
  const { tools, candidateTools, ...rest } = extras;
  return {
    ...rest,
    tools: tools.map(({ tool, ...mode }) => ({ ...mode, schema: toolSchemasOf([tool])[0] })),
    candidateTools: toolSchemasOf(candidateTools),
  };
}

/** A session's stored files, and its messages as the conversation requests give. */
export interface SessionConversation {
  files: readonly StoredAttachment[];
  history: readonly ConversationMessage[];
}

/** A session as the meter read it, as of its version (ContextRecords.version). */
export interface MeteredConversation extends SessionConversation {
  version: string;
  messages: readonly ChatMessage[];
}

/** Sessions whose conversation the meter keeps: the open one and the one before it. */
const meteredSessions = 2;

/**
 * The messages, files and conversation of the sessions the meter reads: a session is read again only
 * once its version changed (a message added or finished, a request recorded, a compaction), not at
 * every keystroke or every event of an answer that streams.
 */
export class MeteredConversations {
  private readonly sessions = new Map<string, MeteredConversation>();

  constructor(
    private readonly version: (sessionId: string) => string,
    private readonly read: (sessionId: string) => Omit<MeteredConversation, 'version'>,
  ) {}

  /** The session's conversation as of now; a new chat's is empty. */
  of(sessionId: string | undefined): MeteredConversation {
    if (!sessionId) return { version: '', messages: [], files: [], history: [] };
    const version = this.version(sessionId);
    let conversation = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (conversation?.version !== version) conversation = { version, ...this.read(sessionId) };
    this.sessions.set(sessionId, conversation);
    const oldest = this.sessions.keys().next().value;
    if (this.sessions.size > meteredSessions && oldest !== undefined) this.sessions.delete(oldest);
    return conversation;
  }
}
