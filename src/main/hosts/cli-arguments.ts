import type { EmbeddingSettings } from '../../shared/embedding-domain';

// What every command's arguments are checked with before anything of the app is loaded: `kasten info`
// and a wrong flag answer without the services, the database or the web host.

/** Wrong arguments: the CLI prints the error and its usage text, and exits with 2. */
export class CliUsageError extends Error {}

/** What each command takes after the vault: a query or a note. */
const subjects: Record<string, string> = { search: 'a query', backlinks: 'a note', related: 'a note' };

/** The vault and, for commands that take one, the query or note: exactly those positionals. */
export function vaultAndSubject(command: string, rest: string[]): { vault: string; subject?: string } {
  const [vault, subject, extra] = rest;
  const subjectName = subjects[command];
  if (vault === undefined) throw new CliUsageError(`kasten ${command} needs the vault folder.`);
  if (subjectName && subject === undefined)
    throw new CliUsageError(`kasten ${command} needs ${subjectName}.`);
  const unexpected = subjectName ? extra : subject;
  if (unexpected !== undefined) throw new CliUsageError(`Unexpected argument "${unexpected}".`);
  return { vault, subject };
}

/** --limit: 1–200, 20 by default. */
export function limitFlag(values: { limit?: string }): number {
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new CliUsageError(`--limit must be 1–200, not "${values.limit}".`);
  return limit;
}

export const embeddingFlagUsage = `       [--embed-provider ollama|openai-compatible] [--embed-url URL] [--embed-model NAME] [--embed-key-env VAR]
                                                            the embedding model for this run (embed, related,
                                                            search, ask, serve); any of them turns embeddings on`;

/**
 * --embed-provider, --embed-url, --embed-model and --embed-key-env: the embedding model for this run, over
 * the stored settings. Any of them turns embeddings on; none leaves the stored settings as they are.
 */
export function embeddingFlags(values: Record<string, unknown>): Partial<EmbeddingSettings> {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const provider = text('embed-provider');
  if (provider !== undefined && provider !== 'ollama' && provider !== 'openai-compatible')
    throw new CliUsageError(`--embed-provider must be ollama or openai-compatible, not "${provider}".`);
  const baseUrl = text('embed-url');
  if (baseUrl !== undefined && !/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? ''))
    throw new CliUsageError(`--embed-url must be an http:// or https:// address, not "${baseUrl}".`);
  const model = text('embed-model')?.trim();
  if (model !== undefined && (model === '' || model.length > 300))
    throw new CliUsageError('--embed-model needs the name of an embedding model.');
  const apiKeyEnv = text('embed-key-env');
  if (apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv))
    throw new CliUsageError(`--embed-key-env must name an environment variable, not "${apiKeyEnv}".`);
  const given = Object.entries({ provider, baseUrl, model, apiKeyEnv }).filter(([, v]) => v !== undefined);
  return given.length === 0 ? {} : { enabled: true, ...Object.fromEntries(given) };
}
