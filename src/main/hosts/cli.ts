import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolveDataDir } from '../data-dir';
import { version } from '../version';
import { CliUsageError as UsageError, embeddingFlags } from './cli-arguments';

// What every command starts with: its arguments read and checked. `kasten info` answers here; the other
// commands load their own code (and the app's services, the database, the web host) once chosen.

export interface CliEnvironment {
  rendererDir: string;
  resourcesDir: string;
  /** The built parser worker; without one, notes are parsed on the main thread. */
  indexWorker?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Writes without a line break (streamed answers); defaults to `stdout`. */
  write?: (text: string) => void;
  /** Resolves when the process is asked to stop (Ctrl+C); `serve` runs until then. */
  untilStopped: () => Promise<void>;
  /**
   * Keeps the compiled code of the modules loaded from then on in the data folder, for the next run to
   * read rather than compile again (the real process: Node's compile cache). Not for tests in process.
   */
  cacheCode?: (dataDir: string) => void;
}

const options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: { type: 'boolean' },
  vault: { type: 'string' },
  port: { type: 'string' },
  broken: { type: 'boolean' },
  limit: { type: 'string' },
  session: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'summary-model': { type: 'string' },
  'api-key-env': { type: 'string' },
  'no-summaries': { type: 'boolean' },
  yes: { type: 'boolean' },
  strategy: { type: 'string' },
  window: { type: 'string' },
  focus: { type: 'string' },
  'data-dir': { type: 'string' },
  mode: { type: 'string' },
  'embed-provider': { type: 'string' },
  'embed-url': { type: 'string' },
  'embed-model': { type: 'string' },
  'embed-key-env': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  vision: { type: 'string' },
  'allow-private-urls': { type: 'boolean' },
  profile: { type: 'boolean' },
  out: { type: 'string' },
  update: { type: 'boolean' },
  pin: { type: 'string', multiple: true },
  attach: { type: 'string', multiple: true },
  rule: { type: 'string', multiple: true },
  prompt: { type: 'string' },
  note: { type: 'string' },
  selection: { type: 'string' },
  name: { type: 'string' },
  url: { type: 'string' },
  cwd: { type: 'string' },
  env: { type: 'string', multiple: true },
} as const satisfies ParseArgsConfig['options'];

/** The flags as parsed, for the commands. */
export type CliValues = ReturnType<
  typeof parseArgs<{ options: typeof options; allowPositionals: true }>
>['values'];

/** The usage text with every command's, loaded to be printed. */
async function usage(): Promise<string> {
  return (await import('./cli-usage')).usage;
}

/** Runs one CLI command and resolves with its exit code. */
export async function runCli(argv: string[], env: CliEnvironment): Promise<number> {
  try {
    return await run(argv, env);
  } catch (error) {
    const help = error instanceof UsageError ? '\n\n' + (await usage()) : '';
    env.stderr(`kasten: ${(error as Error).message}${help}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

async function run(argv: string[], env: CliEnvironment): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version || values.help || command === undefined || command === 'help') {
    env.stdout(values.version ? version : await usage());
    return 0;
  }
  // An empty --data-dir (a variable that was not set, quoted) would silently mean the default folder.
  if (values['data-dir']?.trim() === '')
    throw new UsageError('--data-dir needs a folder, not an empty value.');
  const dataDir = resolveDataDir(values['data-dir']);
  const embeddings = embeddingFlags(values);
  if (command === 'info') {
    if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);
    const info = { name: 'Kasten', version, node: process.version, platform: process.platform, dataDir };
    env.stdout(
      values.json
        ? JSON.stringify(info, null, 2)
        : `Kasten ${info.version}\nNode ${info.node} on ${info.platform}\nData directory: ${info.dataDir}`,
    );
    return 0;
  }
  // Not for `serve`, which starts once a session and would keep the cache in memory (7–8 MiB) all along.
  if (command !== 'serve') env.cacheCode?.(dataDir);
  const { runCommand } = await import('./cli-commands');
  return runCommand(command, rest, values, { dataDir, embeddings }, env);
}
