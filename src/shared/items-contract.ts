import { z } from 'zod';
import {
  agentPromptPlacements,
  contextItemSettingsSchema,
  sessionItemKinds,
  type ContextItemSettings,
  type PreparedAttachment,
  type RuleInfo,
  type SessionItems,
  type ToolInfo,
} from './context-items-domain';
import { event, request, sessionId } from './contract-definitions';
import { maxAttachmentBytes } from './attachment-domain';
import {
  mcpServerConfigsSchema,
  type McpServerConfig,
  type McpServerStatus,
  type McpUnconfirmedCommand,
} from './mcp-domain';

/** Items chosen for a chat before it existed: rule paths or names, tool names, note paths. */
export const sendItems = z
  .object({
    rules: z.array(z.string().min(1).max(4096)).max(200).optional(),
    tools: z.array(z.string().min(1).max(200)).max(200).optional(),
    pinned: z.array(z.string().min(1).max(4096)).max(200).optional(),
  })
  .strict();

/** What Settings shows of the MCP servers: how they are configured and where each stands. */
export interface McpServersView {
  servers: McpServerConfig[];
  statuses: McpServerStatus[];
  /** Stdio servers whose command was not confirmed at this machine: listed, never started. */
  unconfirmed: McpUnconfirmedCommand[];
  /** Whether the caller may add, change or confirm a command: at the machine, not over the browser host. */
  commandsAllowed: boolean;
}

/** Channels of context items: rules, pinned notes, tools and MCP servers, attachments, the agent prompt. */
export const itemRequests = {
  /** Everything a chat's requests may hold besides its messages (a chat not started yet without `sessionId`). */
  'items:session': request<SessionItems>()(() => z.object({ sessionId: sessionId.optional() }).strict()),
  /** Adds an item to a chat or takes it out: a manual rule (path or name), a tool, a pinned note. */
  'items:set': request<SessionItems>()(() =>
    z
      .object({
        sessionId,
        kind: z.enum(sessionItemKinds),
        key: z.string().min(1).max(4096),
        on: z.boolean(),
      })
      .strict(),
  ),
  /** The chat's own agent prompt; `null` to use the vault's again. */
  'items:prompt': request<SessionItems>()(() =>
    z
      .object({
        sessionId,
        prompt: z
          .object({ text: z.string().max(20_000), placement: z.enum(agentPromptPlacements) })
          .strict()
          .nullable(),
      })
      .strict(),
  ),
  /** The open vault's rules folder, agent prompt and tool modes. */
  'items:settings': request<ContextItemSettings>()(() => z.undefined()),
  'items:configure': request<ContextItemSettings>()(() => contextItemSettingsSchema),
  /** The vault's rules, with their include modes and warnings. */
  'rules:list': request<RuleInfo[]>()(() => z.undefined()),
  /** Every tool the model may be offered, the vault's and the MCP servers', with its mode. */
  'tools:list': request<{ tools: ToolInfo[]; notices: string[] }>()(() => z.undefined()),
  /**
   * Reads and counts a file dropped on the composer (`data` in base64); refused with a plain message when
   * it cannot be read or does not fit the model's window. The token goes with `chat:send`.
   */
  'attachments:prepare': request<PreparedAttachment>()(() =>
    z
      .object({
        name: z.string().trim().min(1).max(1000),
        data: z.base64().max(Math.ceil((maxAttachmentBytes * 4) / 3) + 4, 'The file is larger than 25 MB.'),
      })
      .strict(),
  ),
  /** The MCP servers as configured, and where each stands. */
  'mcp:servers': request<McpServersView>()(() => z.undefined()),
  /**
   * Saves the MCP servers; servers removed or changed are stopped. A command added or changed at the
   * machine is confirmed, as are the stored commands of the servers in `confirm`; over the browser host
   * both are refused (`forbidden`), while switches, include modes and HTTP servers may change.
   */
  'mcp:configure': request<McpServersView>()(() =>
    z
      .object({
        servers: mcpServerConfigsSchema,
        confirm: z.array(z.string().min(1).max(64)).max(100).optional(),
      })
      .strict(),
  ),
} as const;

export const itemEvents = {
  /** Rules, pins or MCP servers changed (a rule edited on disk, a pinned note renamed, a server crashed). */
  'items:changed': event<{ sessionId: string | null }>(),
} as const;
