import { z } from 'zod';
import { itemIncludes } from './context-items-domain';

/** When a server's tools are offered: with every request, only when the user picks them, or to agents. */
export const mcpIncludeModeSchema = z.enum(itemIncludes);
export type McpIncludeMode = z.infer<typeof mcpIncludeModeSchema>;

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const common = {
  /** Stable key of the server; part of its tools' names, so a rename keeps them. */
  id: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1).max(80),
  enabled: z.boolean().default(true),
  include: mcpIncludeModeSchema.default('always'),
  /** Per-tool overrides of `include`, by the tool's name on the server. */
  tools: z.record(z.string(), mcpIncludeModeSchema).default({}),
};

/** An MCP server run as a child process speaking over stdin/stdout. */
export const mcpStdioServerSchema = z.object({
  ...common,
  transport: z.literal('stdio'),
  command: z.string().trim().min(1),
  args: z.array(z.string()).default([]),
  /** The only variables the child gets besides a minimal PATH/HOME set: never the app's whole environment. */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
  cwd: z.string().min(1).optional(),
});

/** An MCP server reached over streamable HTTP. */
export const mcpHttpServerSchema = z.object({
  ...common,
  transport: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string().regex(headerName), z.string()).optional(),
});

/** One MCP server as configured in Settings. */
export const mcpServerConfigSchema = z.discriminatedUnion('transport', [
  mcpStdioServerSchema,
  mcpHttpServerSchema,
]);

/** The configured servers, with ids that must differ. */
export const mcpServerConfigsSchema = z
  .array(mcpServerConfigSchema)
  .refine((servers) => new Set(servers.map((server) => server.id)).size === servers.length, {
    message: 'Two MCP servers have the same id.',
  });

export type McpStdioServerConfig = z.infer<typeof mcpStdioServerSchema>;
export type McpHttpServerConfig = z.infer<typeof mcpHttpServerSchema>;
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

/** `crashed`: it was running and went away; `failed`: it never got ready. */
export type McpServerState = 'stopped' | 'starting' | 'ready' | 'failed' | 'crashed';

/** A tool as a server lists it, for the Settings view. */
export interface McpToolSummary {
  name: string;
  description: string;
}

/** Where one server stands, for the Settings view and the chat's notices. */
export interface McpServerStatus {
  id: string;
  name: string;
  state: McpServerState;
  /** Plain words for the user, such as "did not answer within 10 s"; null when all is well. */
  message: string | null;
  tools: McpToolSummary[];
  /** ISO time the running server became ready. */
  startedAt?: string;
}

/**
 * A stdio server that is never started: its command was not confirmed at this machine, or changed since.
 * `reason` says which and where to confirm it.
 */
export interface McpUnconfirmedCommand {
  id: string;
  reason: string;
}

/** Why the browser host may not add, change or confirm a command, and where the user can. */
export const mcpCommandRefusal =
  'Add or change a command in the desktop app or with `kasten mcp add` on this machine: the browser ' +
  'address can be opened by anyone who has it, so it cannot start programs.';
