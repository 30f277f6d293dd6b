import { z } from 'zod';
import type { LinkResolution } from './links/link-resolver';
import type {
  ChatExport,
  ChatMessage,
  ChatSession,
  ContextWindow,
  SessionListing,
  SessionSummary,
  UndoOutcome,
  WriteSettings,
} from './chat-domain';
import {
  embeddingSettingsSchema,
  type EmbeddingProgress,
  type EmbeddingReport,
  type EmbeddingStatus,
  type SearchResults,
  type RelatedNotes,
} from './embedding-domain';
import type {
  ConnectionReport,
  ModelInfo,
  ModelSetup,
  SummaryEstimate,
  SummaryProgress,
  SummaryReport,
} from './model-domain';
import type {
  AppInfo,
  AttachmentFile,
  NoteFile,
  RecentVault,
  VaultChange,
  VaultSummary,
  VaultTree,
} from './domain';
import type {
  IndexChange,
  IndexProgress,
  IndexReport,
  NoteSubpaths,
  NoteTitle,
  ResolvedLink,
  SearchHit,
  TagCount,
  HealthCounts,
} from './index-domain';
import type { HealthLinkPage, HealthSummary } from './health-domain';

import { event, request, sessionId } from './contract-definitions';
import type { MessageDelta } from './chat/message-delta';
import { contextRequests } from './context-contract';
import { costRequests } from './cost-contract';
import { modelSettings } from './model-settings-schema';
import { itemEvents, itemRequests, sendItems } from './items-contract';
import { promptRequests } from './prompts-contract';
import { chatWriteRequests } from './chat-writes-contract';
import { noteSelectionSchema } from './selection-domain';
import { imageRequests } from './images-contract';
import { webRequests } from './web-contract';
import { agentPromptPlacements } from './context-items-domain';

export type { EventDefinition, RequestDefinition } from './contract-definitions';

/** How `search:notes` ranks: by words, by meaning, or both fused. */
export const searchModes = ['lexical', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof searchModes)[number];

/** What `search:notes` and `search:results` take. */
const searchRequest = z
  .object({
    query: z.string().max(1000),
    limit: z.number().int().min(1).max(200).optional(),
    /** How many of the best hits to pass over: the page after them. */
    offset: z.number().int().min(0).max(10_000).optional(),
    folder: z.string().max(4096).optional(),
    tag: z.string().max(200).optional(),
    mode: z.enum(searchModes).optional(),
  })
  .strict();

const vaultRelativePath = z
  .string()
  .min(1, 'A path is required.')
  .max(4096)
  .refine((path) => !path.includes('\0'), 'A path cannot contain NUL.');

/** Every request that crosses a process boundary. Channels are named `domain:verb`. */
export const requests = {
  /** Version, platform and data directory of the running app. */
  'app:info': request<AppInfo>()(() => z.undefined()),
  /** Open a folder as the vault; without a path the host asks the user to pick one. */
  'vault:open': request<VaultSummary | null>()(() =>
    z
      .object({ path: z.string().min(1).max(4096).optional() })
      .strict()
      .optional(),
  ),
  /** Vaults opened before, most recent first. */
  'vault:recent': request<RecentVault[]>()(() => z.undefined()),
  /** The open vault and its folders and notes; `vault: null` when none is open. */
  'vault:tree': request<VaultTree>()(() => z.undefined()),
  /** A note's Markdown source, by vault-relative path. */
  'notes:read': request<NoteFile>()(() => z.object({ path: vaultRelativePath }).strict()),
  /** An attachment's bytes (images shown in the note viewer), by vault-relative path. */
  'attachments:read': request<AttachmentFile>()(() => z.object({ path: vaultRelativePath }).strict()),
  /**
   * The vault's health: its issues grouped by kind and target with their counts (not the links), every
   * warning about its files, and notices about the index; only issues and warnings under `folder` when given.
   */
  'health:summary': request<HealthSummary>()(() =>
    z.object({ folder: vaultRelativePath.optional() }).strict().optional(),
  ),
  /** A page of the links of one group of `health:summary`, in the order of their notes' paths and lines. */
  'health:links': request<HealthLinkPage>()(() =>
    z
      .object({
        kind: z.string().min(1).max(100),
        key: z.string().max(8192),
        folder: vaultRelativePath.optional(),
        offset: z.number().int().min(0),
        limit: z.number().int().min(1).max(500),
      })
      .strict(),
  ),
  /** How many of each the health lists hold; cheap enough to ask after every change. */
  'vault:issues': request<HealthCounts>()(() => z.undefined()),
  /** Indexing progress and the counts of the last finished pass. */
  'index:status': request<{ progress: IndexProgress; report: IndexReport | null }>()(() => z.undefined()),
  /**
   * The counts and warnings of the open vault's index: the last pass's, or, when another process wrote
   * it, the index's as it stands.
   */
  'index:report': request<IndexReport>()(() => z.undefined()),
  /** Stops a running index pass; the rest is picked up on the next open. */
  'index:cancel': request<null>()(() => z.undefined()),
  /**
   * Search. Lexically: the notes holding every word (each as a prefix) best first, then, when those are
   * few, the notes holding some of the words (`ranker: 'some-words'`). Semantically: the notes whose
   * passages are closest in meaning (`ranker: 'semantic'`). Hybrid (the default when embeddings are on):
   * both fused by reciprocal rank. Without usable embeddings every mode answers lexically; why is in
   * `embeddings:status`.
   */
  'search:notes': request<SearchHit[]>()(() => searchRequest),
  /**
   * Search as `search:notes` does, with why it answered by words alone when asked to search by meaning
   * (`lexicalOnly`; null when it did as asked); a page of it (the hits after the first `offset`), how
   * many notes it found in all, and whether the index is still being built (its hits may then be missing
   * notes).
   */
  'search:results': request<SearchResults>()(() => searchRequest),
  /**
   * Notes related to a note: links either way, shared tags, and similar ones (by meaning with embeddings,
   * by words without), each with its reasons; similar notes not linked either way are missing links.
   */
  'notes:related': request<RelatedNotes>()(() =>
    z.object({ path: vaultRelativePath, limit: z.number().int().min(1).max(100).optional() }).strict(),
  ),
  /** Every tag in the vault with how many notes carry it. */
  'search:tags': request<TagCount[]>()(() => z.undefined()),
  /**
   * Resolves links as if written in the note at `from` (`''`: the vault's root), where an alias names no
   * note; without `from`, as typed in a chat message, where it may (marked `viaAlias`).
   */
  'links:resolve': request<LinkResolution[]>()(() =>
    z
      .object({
        links: z
          .array(
            z.object({ target: z.string().max(4096), subpath: z.string().max(4096).nullable() }).strict(),
          )
          .max(200),
        from: z.string().max(4096).optional(),
      })
      .strict(),
  ),
  /** Every note's title and aliases, and the shortest link to it, for `[[` completion. */
  'notes:titles': request<NoteTitle[]>()(() => z.undefined()),
  /** The headings and blocks of the note a link `target` typed in a chat leads to, for `[[Note#` completion. */
  'links:subpaths': request<NoteSubpaths | null>()(() => z.object({ target: z.string().max(4096) }).strict()),
  /** Every link in the vault, resolved; with `broken`, only the broken links and broken subpaths. */
  'links:list': request<ResolvedLink[]>()(() =>
    z.object({ broken: z.boolean().optional() }).strict().optional(),
  ),
  /** The links in a note, resolved. */
  'links:outgoing': request<ResolvedLink[]>()(() => z.object({ path: vaultRelativePath }).strict()),
  /** The links in other notes that point at this one, with the line they are on. */
  'links:backlinks': request<ResolvedLink[]>()(() => z.object({ path: vaultRelativePath }).strict()),
  /**
   * Sends a message (starting a session without `sessionId`); the answer streams as a `chat:message`,
   * then `chat:delta` events, and ends with a `chat:message`.
   */
  'chat:send': request<{
    session: SessionSummary;
    userMessage: ChatMessage;
    assistantMessage: ChatMessage;
  }>()(() =>
    z
      .object({
        sessionId: sessionId.optional(),
        text: z.string().min(1, 'The message is empty.').max(200_000),
        // Images are capped per message in words (images/image-attachment.ts), below this bound.
        attachments: z.array(z.string().min(1).max(100)).max(100).optional(),
        items: sendItems.optional(),
        selection: noteSelectionSchema.optional(),
        prompt: z
          .object({ text: z.string().max(20_000), placement: z.enum(agentPromptPlacements) })
          .strict()
          .optional(),
        writes: z.enum(['ask', 'allow']).optional(),
      })
      .strict(),
  ),
  ...contextRequests,
  /**
   * Announces a message again, whole, as a `chat:message`: for a client that missed a `chat:delta` or
   * joined while the answer streamed.
   */
  'chat:resend': request<null>()(() =>
    z.object({ sessionId, messageId: z.number().int().positive() }).strict(),
  ),
  /** Stops the answer being written; the text so far is kept, marked stopped. */
  'chat:stop': request<null>()(() => z.object({ sessionId }).strict()),
  /**
   * The user's decision on a change a write tool proposed (`callId` is the tool call's id): approved, it
   * is written; rejected, nothing is. The answer waits for this and then goes on.
   */
  'chat:approve': request<null>()(() =>
    z.object({ sessionId, callId: z.string().min(1).max(500), approved: z.boolean() }).strict(),
  ),
  /** Whether the model is offered the write tools (`create_note`, `append_to_note`, `edit_note`) in the open vault. */
  'writes:status': request<WriteSettings>()(() => z.undefined()),
  /** Allows or forbids write tools in the open vault; each call still waits for approval. */
  'writes:configure': request<WriteSettings>()(() => z.object({ enabled: z.boolean() }).strict()),
  /**
   * Takes back what Kasten wrote for a chat: the change of one tool call (`messageId` and `callId`), or
   * every change of the chat not undone yet (its exports too), newest first. Each note gets its previous
   * bytes back only if it is still exactly as Kasten left it; the outcomes say so in words.
   */
  'writes:undo': request<UndoOutcome[]>()(() =>
    z
      .object({
        sessionId,
        messageId: z.number().int().positive().optional(),
        callId: z.string().min(1).max(500).optional(),
      })
      .strict()
      .refine((input) => (input.messageId === undefined) === (input.callId === undefined), {
        message: 'Give both messageId and callId to undo one change, or neither to undo the whole chat.',
      }),
  ),
  /** Answers the session's last question again. */
  'chat:retry': request<{ session: SessionSummary; assistantMessage: ChatMessage }>()(() =>
    z.object({ sessionId }).strict(),
  ),
  /** The open vault's chat sessions, most recent first; `query` searches titles and messages. */
  'sessions:list': request<SessionListing[]>()(() =>
    z
      .object({ query: z.string().max(1000).optional() })
      .strict()
      .optional(),
  ),
  /** A session with its messages, references and numbered documents. */
  'sessions:get': request<ChatSession>()(() => z.object({ id: sessionId }).strict()),
  'sessions:rename': request<null>()(() =>
    z.object({ id: sessionId, title: z.string().trim().min(1, 'A title is required.').max(200) }).strict(),
  ),
  /** Deletes a session; `sessions:restore` undoes it. */
  'sessions:delete': request<null>()(() => z.object({ id: sessionId }).strict()),
  'sessions:restore': request<null>()(() => z.object({ id: sessionId }).strict()),
  /**
   * Exports a chat to a Markdown note in the vault (folder default `Kasten chats`): a new note, or with
   * `update` the note it was last exported to, unless someone edited that one since; or the note at `path`.
   */
  'sessions:export': request<ChatExport>()(() =>
    z
      .object({
        id: sessionId,
        folder: z.string().trim().max(1000).optional(),
        /** The note to write (ending in .md) instead of a new one in `folder`. */
        path: vaultRelativePath.optional(),
        update: z.boolean().optional(),
      })
      .strict(),
  ),
  /** The text being typed in a chat (`sessionId`) or in the vault's chat not started yet; '' when none. */
  'drafts:read': request<{ text: string }>()(() => z.object({ sessionId: sessionId.optional() }).strict()),
  /** Keeps what is being typed across reloads and restarts until it is sent; '' forgets it. */
  'drafts:save': request<null>()(() =>
    z.object({ sessionId: sessionId.optional(), text: z.string().max(200_000) }).strict(),
  ),
  /** The chat model settings, where the key comes from (never the key), and summary settings. */
  'models:settings': request<ModelSetup>()(() => z.undefined()),
  'models:configure': request<ModelSetup>()(() => modelSettings),
  /** Stores the key for the configured server, encrypted (desktop only); null forgets it. */
  'models:key': request<ModelSetup>()(() =>
    z.object({ key: z.string().trim().min(1, 'The key is empty.').max(2000).nullable() }).strict(),
  ),
  /** The models a provider offers: the saved settings', or those of a draft in the settings view. */
  'models:list': request<ModelInfo[]>()(() => modelSettings.optional()),
  /** Lists the provider's models and checks the chosen one is there, with a plain diagnosis. */
  'models:test': request<ConnectionReport>()(() => modelSettings.optional()),
  /** The configured model's context window and where the figure came from. */
  'models:window': request<ContextWindow>()(() => z.undefined()),
  /** Turns summaries of notes as they are used on or off. */
  'summaries:configure': request<ModelSetup>()(() => z.object({ background: z.boolean() }).strict()),
  /**
   * What summarizing the notes at `paths` (every note when omitted) would take: how many notes need a
   * model call, the tokens, and for a hosted model the cost when its price is known.
   */
  'summaries:estimate': request<SummaryEstimate>()(() =>
    z
      .object({ paths: z.array(vaultRelativePath).max(100_000).optional() })
      .strict()
      .optional(),
  ),
  /**
   * Summarizes the notes at `paths` (every note when omitted) that have no summary for their content.
   * More than `summariesWithoutAsking` model calls start only `confirmed`, once the estimate was shown.
   */
  'summaries:run': request<SummaryReport>()(() =>
    z
      .object({
        paths: z.array(vaultRelativePath).max(100_000).optional(),
        confirmed: z.boolean().optional(),
      })
      .strict()
      .optional(),
  ),
  /** Stops the running summaries; those made so far stay cached. */
  'summaries:cancel': request<null>()(() => z.undefined()),
  'summaries:status': request<SummaryProgress>()(() => z.undefined()),
  /** The embedding model's settings, how far the vault's vectors are, and why semantic search is off. */
  'embeddings:status': request<EmbeddingStatus>()(() => z.undefined()),
  /** Embeds what changed since the last run, now; resolves when done, cancelled or failed. */
  'embeddings:run': request<EmbeddingReport>()(() => z.undefined()),
  /** Stops the running embedding; the vectors made so far are kept. */
  'embeddings:cancel': request<null>()(() => z.undefined()),
  /** Saves the embedding model's settings; another model's vectors are dropped and rebuilt. */
  'embeddings:configure': request<EmbeddingStatus>()(() => embeddingSettingsSchema),
  ...itemRequests,
  ...costRequests,
  ...promptRequests,
  ...chatWriteRequests,
  ...imageRequests,
  ...webRequests,
} as const;

/** Every event the main process pushes. */
export const events = {
  /** A vault was opened, or files in the open vault changed. */
  'vault:changed': event<VaultChange>(),
  /** Indexing advanced, finished or was cancelled. */
  'index:progress': event<IndexProgress>(),
  /** The index applied file changes: links, backlinks and search results may differ now. */
  'index:changed': event<IndexChange>(),
  /** A chat message changed: its start, a part a delta does not carry, its end; or it was asked for. */
  'chat:message': event<ChatMessage>(),
  /** What a streaming answer's parts gained since its previous announcement (see `MessageDelta`). */
  'chat:delta': event<MessageDelta>(),
  /** An answer or a compaction started (`answering: true`) or ended in a session. */
  'chat:answering': event<{ sessionId: string; answering: boolean }>(),
  /** What the next request of a session would hold changed: a request was sent, a tool result came in. */
  'context:changed': event<{ sessionId: string }>(),
  /** The model settings, the key for their server or the summary settings changed; `models:settings` has them. */
  'models:changed': event<null>(),
  /** The configured model's window changed: a server named its window in an error, or a kept one was dropped. */
  'models:windowChanged': event<ContextWindow>(),
  /** Summaries advanced, finished or were cancelled. */
  'summaries:progress': event<SummaryProgress>(),
  /** Embedding the vault advanced, paused, finished, failed or was cancelled. */
  'embeddings:progress': event<EmbeddingProgress>(),
  ...itemEvents,
} as const;

export type RequestChannel = keyof typeof requests;
export type EventChannel = keyof typeof events;
export type RequestInput<C extends RequestChannel> = z.input<(typeof requests)[C]['input']>;
export type ParsedInput<C extends RequestChannel> = z.output<(typeof requests)[C]['input']>;
export type RequestOutput<C extends RequestChannel> = Exclude<(typeof requests)[C]['output'], undefined>;
export type EventPayload<E extends EventChannel> = Exclude<(typeof events)[E]['payload'], undefined>;
/** A push event as the browser host sends it over its socket: the channel says what the payload is. */
export type EventMessage = { [E in EventChannel]: { channel: E; payload: EventPayload<E> } }[EventChannel];

export const requestChannels = Object.keys(requests) as RequestChannel[];
export const eventChannels = Object.keys(events) as EventChannel[];

/** What a host sends back for every request: errors are values, never thrown across the boundary. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: KastenErrorInfo };

export type ErrorCode =
  | 'invalid-input'
  | 'not-found'
  | 'not-a-folder'
  | 'no-vault'
  | 'outside-vault'
  | 'too-large'
  | 'unsupported'
  | 'forbidden'
  /** The settings would send an environment variable's key to a server the user has not confirmed for it. */
  | 'confirm-key'
  | 'internal';

export interface KastenErrorInfo {
  code: ErrorCode;
  message: string;
}

/** Who sent a request, as the host that took it knows; never read from the payload. */
export interface Caller {
  /** The user is at this machine (the desktop app, the CLI), not anyone holding the browser host's address. */
  readonly atMachine: boolean;
}

/**
 * The services behind the contract: one function per request channel. A call without a caller counts as
 * one from the browser host, so a path that forgets to say who is calling can do no more than it can.
 */
export type Handlers = {
  [C in RequestChannel]: (input: ParsedInput<C>, caller?: Caller) => Promise<RequestOutput<C>>;
};
