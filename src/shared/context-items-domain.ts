import { z } from 'zod';
import type { AttachmentKind } from './attachment-domain';
import type { NoteSelection } from './selection-domain';

/**
 * How a context item gets into requests: in every request of every chat (`always`), in the chats the
 * user added it to (`manual`), or when the question is about what it describes (`agent`).
 */
export const itemIncludes = ['always', 'manual', 'agent'] as const;
export type ItemInclude = (typeof itemIncludes)[number];

/** A rule: a note in the vault's rules folder, its frontmatter saying when it applies. */
export interface RuleInfo {
  path: string;
  /** The note's title. */
  name: string;
  include: ItemInclude;
  description: string | null;
  /** Tokens of its text as the model is given it (local count). */
  tokens: number;
  /** Frontmatter that could not be read or an `include:` not understood: the rule counts as `manual`. */
  warning: string | null;
}

/** A tool the model may be offered: one of the vault's or an MCP server's. */
export interface ToolInfo {
  /** The name the model calls it by (`mcp__server__tool` for MCP tools). */
  name: string;
  /** Kasten's own tools: those on the vault, and `fetch_url`, which reads the web; or an MCP server's. */
  source: 'vault' | 'web' | 'mcp';
  /** For MCP tools: the server's id and name. */
  server: { id: string; name: string } | null;
  description: string;
  include: ItemInclude;
  /** What its schema costs in every request it is offered in. */
  tokens: number;
}

/** A note pinned into a chat: given to the model in every request of it. */
export interface PinnedNote {
  path: string;
  title: string;
  /** `moved`: the note was renamed and the pin followed it; `gone`: it was deleted. */
  state: 'present' | 'moved' | 'gone';
  /** The path it had when it was pinned or last seen, when it moved. */
  previousPath: string | null;
  /**
   * What it takes in the chat's next request, as the context meter counts it (the same figure the meter
   * and "Context used" give it); null when it is gone or left out of that request.
   */
  tokens: number | null;
}

/** A file attached to one message of a chat (its text goes with that message). */
export interface AttachmentInfo {
  id: number;
  messageId: number;
  name: string;
  kind: AttachmentKind;
  pages: number | null;
  bytes: number;
  tokens: number;
  truncated: boolean;
  /** A web page's address; null for a file. */
  url?: string | null;
  /** A web page's document number in the session, which answers cite; null for a file (or not sent yet). */
  document?: number | null;
}

/** A file dropped on the composer, read and counted, waiting to be sent with the next message. */
export interface PreparedAttachment extends Omit<AttachmentInfo, 'id' | 'messageId'> {
  /** Hands the file to `chat:send`; valid for this run of Kasten only. */
  token: string;
}

/** Where the custom agent prompt goes: above the latest question, or instead of Kasten's system prompt. */
export const agentPromptPlacements = ['message', 'system'] as const;
export type AgentPromptPlacement = (typeof agentPromptPlacements)[number];

/** What goes into a vault's requests besides the chat: the rules folder, the agent prompt, tool modes. */
export interface ContextItemSettings {
  /** Vault-relative folder whose notes are rules. */
  rulesFolder: string;
  agentPrompt: string;
  agentPromptPlacement: AgentPromptPlacement;
  /** Include modes of the vault's tools by name; a tool not named is `always`. */
  tools: Record<string, ItemInclude>;
}

export const defaultContextItemSettings: ContextItemSettings = {
  rulesFolder: '_kasten/rules',
  agentPrompt: '',
  agentPromptPlacement: 'message',
  tools: {},
};

export const contextItemSettingsSchema = z
  .object({
    rulesFolder: z
      .string()
      .trim()
      .min(1, 'The rules folder needs a name.')
      .max(500)
      .refine((folder) => !folder.split(/[\\/]/).includes('..'), 'The rules folder must be inside the vault.')
      .refine((folder) => !/^([\\/]|[A-Za-z]:)/.test(folder), 'The rules folder is a path inside the vault.'),
    agentPrompt: z.string().max(20_000),
    agentPromptPlacement: z.enum(agentPromptPlacements),
    tools: z.record(z.string().min(1).max(200), z.enum(itemIncludes)),
  })
  .strict();

/** Items a chat has that the user chose: manual rules and tools added, notes pinned. */
export const sessionItemKinds = ['rule', 'tool', 'pinned'] as const;
export type SessionItemKind = (typeof sessionItemKinds)[number];

/** Everything that may go into a chat's requests besides its messages, for the session context panel. */
export interface SessionItems {
  /** Null for a chat not started yet. */
  sessionId: string | null;
  rules: (RuleInfo & { active: boolean })[];
  tools: (ToolInfo & { active: boolean })[];
  pinned: PinnedNote[];
  attachments: AttachmentInfo[];
  /** The prompt in force: the chat's own when it has one, else the vault's. */
  agentPrompt: { text: string; placement: AgentPromptPlacement; own: boolean };
  rulesFolder: string;
  /** Problems worth a line in the panel: an unreadable rules folder, an MCP server that did not start. */
  notices: string[];
}

/** What `chat:send` takes: the message, its chat, files read by `attachments:prepare`, items to add first. */
export interface SendInput {
  sessionId?: string;
  text: string;
  /** Tokens of prepared attachments, sent with this message. */
  attachments?: string[];
  /** Items added to the chat before the message is answered (chosen in a chat not started yet). */
  items?: { rules?: string[]; tools?: string[]; pinned?: string[] };
  /** A passage selected in the note viewer that the message asks about. */
  selection?: NoteSelection;
  /** The chat's own agent prompt, set before the message is answered (chosen in a chat not started yet). */
  prompt?: { text: string; placement: AgentPromptPlacement };
  /**
   * The chat's choice about writes, set before the message is answered (chosen in a chat not started
   * yet): `allow` lets its very first answer write at once. The vault's switch still wins.
   */
  writes?: 'ask' | 'allow';
}
