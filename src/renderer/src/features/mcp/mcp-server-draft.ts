import {
  mcpServerConfigSchema,
  type McpIncludeMode,
  type McpServerConfig,
} from '../../../../shared/mcp-domain';

/** A server as the form edits it: arguments one per line, the environment as KEY=VALUE lines. */
export interface ServerDraft {
  /** The id of the server being edited; null for a new one (its id is made from its name). */
  id: string | null;
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  args: string;
  env: string;
  url: string;
  include: McpIncludeMode;
  enabled: boolean;
}

export const emptyDraft: ServerDraft = {
  id: null,
  name: '',
  transport: 'stdio',
  command: '',
  args: '',
  env: '',
  url: '',
  include: 'always',
  enabled: true,
};

export function draftOf(config: McpServerConfig): ServerDraft {
  return {
    id: config.id,
    name: config.name,
    transport: config.transport,
    command: config.transport === 'stdio' ? config.command : '',
    args: config.transport === 'stdio' ? config.args.join('\n') : '',
    env:
      config.transport === 'stdio'
        ? Object.entries(config.env)
            .map(([key, value]) => `${key}=${value}`)
            .join('\n')
        : '',
    url: config.transport === 'http' ? config.url : '',
    include: config.include,
    enabled: config.enabled,
  };
}

/** A new server's id: its name in lower case letters, digits and dashes, unique among `taken`. */
export function serverId(name: string, taken: readonly string[]): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'server';
  let id = base;
  for (let count = 2; taken.includes(id); count++) id = `${base}-${count}`;
  return id;
}

/** KEY=VALUE lines as a record; the first line that is not one is the error. */
export function parseEnv(text: string): { env: Record<string, string> } | { error: string } {
  const env: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) return { error: `Line ${index + 1} of the environment is not KEY=VALUE: “${line}”.` };
    env[match[1]!] = match[2]!;
  }
  return { env };
}

/**
 * The server the draft describes, keeping what the form does not show of the one it edits (per-tool
 * modes, working folder, headers); or the first thing wrong with it, in a sentence.
 */
export function configOf(
  draft: ServerDraft,
  others: readonly McpServerConfig[],
  previous: McpServerConfig | null,
): { config: McpServerConfig } | { error: string } {
  const name = draft.name.trim();
  if (!name) return { error: 'The server needs a name.' };
  if (others.some((server) => server.name.trim().toLowerCase() === name.toLowerCase()))
    return { error: `Another server is already called “${name}”.` };
  const id =
    draft.id ??
    serverId(
      name,
      others.map((server) => server.id),
    );
  const common = {
    id,
    name,
    enabled: draft.enabled,
    include: draft.include,
    tools: previous?.tools ?? {},
  };
  let config: unknown;
  if (draft.transport === 'stdio') {
    if (!draft.command.trim()) return { error: 'The command that starts the server is missing.' };
    const env = parseEnv(draft.env);
    if ('error' in env) return env;
    const args = draft.args.split(/\r?\n/).filter((line) => line.trim() !== '');
    const cwd = previous?.transport === 'stdio' ? previous.cwd : undefined;
    config = {
      ...common,
      transport: 'stdio',
      command: draft.command.trim(),
      args,
      env: env.env,
      ...(cwd ? { cwd } : {}),
    };
  } else {
    const headers = previous?.transport === 'http' ? previous.headers : undefined;
    config = { ...common, transport: 'http', url: draft.url.trim(), ...(headers ? { headers } : {}) };
  }
  const parsed = mcpServerConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    if (field === 'url') return { error: 'The URL must start with http:// or https://.' };
    return { error: `${field ? `${field}: ` : ''}${issue?.message ?? 'The server settings are not valid.'}` };
  }
  return { config: parsed.data };
}
