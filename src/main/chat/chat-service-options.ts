import type { ChatMessage, SessionSummary } from '../../shared/chat-domain';
import type { PriceQuote } from '../../shared/cost/cost-domain';
import type { AppEvents } from '../app-events';
import type { AttachmentIntake } from '../items/attachment-intake';
import type { AttachmentStore } from '../items/attachment-store';
import type { ItemService } from '../items/item-service';
import type { McpToolSource } from '../items/tool-catalog';
import type { ChatModel } from '../llm/llm-types';
import type { SessionContext } from '../request/session-context';
import type { ToolRegistry } from '../tools/tool-registry';
import type { ChatStore } from './chat-store';
import type { MessageExtras } from './message-extras';
import type { ToolVault } from './note-locator';
import type { VaultWrites } from './vault-writes';

// What the chat service is built from, and what starting an answer gives back.

export interface ChatServiceOptions {
  store: ChatStore;
  events: AppEvents;
  /** The open vault: its root (sessions belong to it), name, and the tools' view of it. */
  vault: () => { root: string; name: string; tools: ToolVault };
  /** The configured model; throws a user-facing AppError when none is set up. */
  model: () => ChatModel;
  /**
   * Resolves once the index has read the vault (or its pass was cancelled): the notes a message links,
   * and what the tools search and read, are looked up in it.
   */
  indexed?: () => Promise<void>;
  /** The context engine's view of sessions: plans every request of an answer. */
  context: SessionContext;
  /** Every tool the model may call, and the MCP servers that run theirs. */
  tools: { registry: ToolRegistry; mcp: Pick<McpToolSource, 'call'> | null };
  /** Rules, pins, attachments and the tools beyond the vault's; without it a chat has none of them. */
  items?: ItemService;
  /** Files dropped on the composer, read and counted, waiting for their message; and where they are kept. */
  attachments?: { intake: AttachmentIntake; store: AttachmentStore };
  /**
   * The vaults' "allow writes" switches, the decisions answers wait for, who decides by default, and the
   * vault's writer. Without it nothing is written: write calls are refused.
   */
  writes?: VaultWrites;
  stepLimit?: number;
  /** What a model's calls cost (the configured one's when none is named); without it answers carry no cost. */
  price?: (model?: string) => Promise<PriceQuote>;
  /** Streamed text is written to the database at least this often. */
  saveEveryMs?: number;
  /** What a message brings again when its answer is retried (a saved prompt's note and model). */
  again?: (message: ChatMessage) => Promise<MessageExtras | null>;
}

export interface StartedTurn {
  session: SessionSummary;
  userMessage: ChatMessage | null;
  assistantMessage: ChatMessage;
  /** Settles with the finished answer (complete, stopped or error); never rejects. */
  done: Promise<ChatMessage>;
}
