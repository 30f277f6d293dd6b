import { stat } from 'node:fs/promises';
import { isAbsolute, resolve, win32 } from 'node:path';
import { parseArgs } from 'node:util';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import { createApp } from '../app';
import type { ModelSettings } from '../../shared/chat-domain';
import { resolveDataDir } from '../data-dir';
import { version } from '../version';
import {
  CliUsageError as UsageError,
  limitFlag,
  openCliApp,
  vaultAndSubject,
  type CliAppEnvironment,
} from './cli-app';
import { exportCommandUsage, runExportCommand } from './cli-export-command';
import { runUndoCommand, undoArguments, undoCommandUsage } from './cli-undo-command';
import { mcpCommandUsage, runMcpCommand } from './cli-mcp-commands';
import { chatCommandUsage } from './cli-chat-commands';
import { chatCommand, isChatCommand, modelFlags } from './cli-chat-route';
import { askItemFlags } from './cli-items-commands';
import {
  embeddingCommandUsage,
  embeddingFlagUsage,
  embeddingFlags,
  runEmbeddingCommand,
} from './cli-embedding-commands';
import { call } from './cli-call';
import { runVaultCommand, searchModeFlag, vaultCommandUsage } from './cli-vault-commands';
import { startWebHost } from './web';

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
}

const usage = `Kasten ${version} — chat with your Markdown vault.

Usage:
  kasten serve [--vault PATH] [--port N] [--data-dir DIR]   run the browser host on 127.0.0.1
       [--provider P] [--base-url URL] [--model NAME] [--api-key-env NAME]   (model for this run)
       [--no-summaries]                                     no model summaries of notes as they are used
  kasten info [--data-dir DIR] [--json]                     version, platform and data directory
${vaultCommandUsage}
${embeddingCommandUsage}
${embeddingFlagUsage}
${chatCommandUsage}
${exportCommandUsage}
${undoCommandUsage}
${mcpCommandUsage}
  kasten --help                                             this text

Every command accepts --data-dir DIR. Paths printed are relative to the vault, with "/".
Data directory: --data-dir, else $KASTEN_DATA_DIR unless empty, else the platform's app-data folder.
API keys are read from the variable given with --api-key-env (--embed-key-env for the embedding
model), for the server of that run, or from one confirmed for its server in the desktop app.
Exit codes: 0 success, 1 failure, 2 wrong usage.`;

/** Runs one CLI command and resolves with its exit code. */
export async function runCli(argv: string[], env: CliEnvironment): Promise<number> {
  try {
    return await run(argv, env);
  } catch (error) {
    env.stderr(`kasten: ${(error as Error).message}${error instanceof UsageError ? '\n\n' + usage : ''}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

async function run(argv: string[], env: CliEnvironment): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
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
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // The repeatable flags of `ask` are lists; the other flags are single values.
  const { pin, attach, rule, env: envFlags, ...values } = parsed.values;
  const { positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version || values.help || command === undefined || command === 'help') {
    env.stdout(values.version ? version : usage);
    return 0;
  }
  // An empty --data-dir (a variable that was not set, quoted) would silently mean the default folder.
  if (values['data-dir']?.trim() === '')
    throw new UsageError('--data-dir needs a folder, not an empty value.');
  const dataDir = resolveDataDir(values['data-dir']);
  const embeddings = embeddingFlags(values);
  if (isVaultCommand(command)) return vaultCommand(command, rest, values, { dataDir, embeddings }, env);
  if (command === 'embed' || command === 'related')
    return embeddingCommand(command, rest, values, { dataDir, embeddings }, env);
  if (isChatCommand(command)) {
    const items = askItemFlags({ pin, attach, rule });
    return chatCommand(command, rest, values, items, { dataDir, embeddings }, env);
  }
  if (command === 'export') return exportCommand(rest, values, { dataDir, embeddings }, env);
  if (command === 'undo') {
    const appEnv = { dataDir, embeddings, resourcesDir: env.resourcesDir, indexWorker: env.indexWorker };
    return runUndoCommand(undoArguments(rest, values), (folder) => openCliApp(folder, appEnv), env.stdout);
  }
  if (command === 'mcp') {
    const flags = { json: values.json === true, name: values.name, url: values.url, cwd: values.cwd };
    const open = () =>
      Promise.resolve(createApp({ host: 'cli', version, dataDir, resourcesDir: env.resourcesDir }));
    return runMcpCommand(rest, { ...flags, env: envFlags ?? [] }, open, env.stdout);
  }
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);

  if (command === 'info') {
    const info = { name: 'Kasten', version, node: process.version, platform: process.platform, dataDir };
    env.stdout(
      values.json
        ? JSON.stringify(info, null, 2)
        : `Kasten ${info.version}\nNode ${info.node} on ${info.platform}\nData directory: ${info.dataDir}`,
    );
    return 0;
  }
  if (command === 'serve') return serve(values, { model: modelFlags(values), embeddings }, dataDir, env);
  throw new UsageError(`Unknown command "${command}".`);
}

const vaultCommands = ['index', 'links', 'search', 'backlinks'] as const;

/** The data directory and the embedding model for this run, which every vault command opens the app with. */
type RunSettings = Pick<CliAppEnvironment, 'dataDir' | 'embeddings'>;

function isVaultCommand(command: string): command is (typeof vaultCommands)[number] {
  return (vaultCommands as readonly string[]).includes(command);
}

function vaultCommand(
  command: (typeof vaultCommands)[number],
  rest: string[],
  values: { json?: boolean; broken?: boolean; limit?: string; mode?: string },
  run: RunSettings,
  env: CliEnvironment,
): Promise<number> {
  const { vault, subject } = vaultAndSubject(command, rest);
  const args = { command, vault, subject, json: values.json ?? false, broken: values.broken ?? false };
  return runVaultCommand(
    { ...args, limit: limitFlag(values), mode: searchModeFlag(values) },
    { ...run, resourcesDir: env.resourcesDir, indexWorker: env.indexWorker, ...streams(env) },
  );
}

/** `embed` and `related`: the vault's vectors, and the notes related to a note. */
function embeddingCommand(
  command: 'embed' | 'related',
  rest: string[],
  values: { json?: boolean; limit?: string },
  run: RunSettings,
  env: CliEnvironment,
): Promise<number> {
  const { vault, subject } = vaultAndSubject(command, rest);
  const appEnv = { ...run, resourcesDir: env.resourcesDir, indexWorker: env.indexWorker };
  return runEmbeddingCommand(
    { command, vault, note: subject, json: values.json ?? false, limit: limitFlag(values) },
    (folder) => openCliApp(folder, appEnv),
    { ...streams(env), untilStopped: env.untilStopped },
  );
}

/** `export`: a chat as a Markdown note in the vault. */
function exportCommand(
  rest: string[],
  values: { json?: boolean; session?: string; out?: string; update?: boolean },
  run: RunSettings,
  env: CliEnvironment,
): Promise<number> {
  const [vault, extra] = rest;
  if (vault === undefined) throw new UsageError('kasten export needs the vault folder.');
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
  if (values.session === undefined) throw new UsageError('kasten export needs --session ID.');
  if (values.out !== undefined && (isAbsolute(values.out) || win32.isAbsolute(values.out))) {
    throw new UsageError(
      `--out "${values.out}" is an absolute path; give a folder or note inside the vault, relative to it (such as "Kasten chats").`,
    );
  }
  const appEnv = { ...run, resourcesDir: env.resourcesDir, indexWorker: env.indexWorker };
  return runExportCommand(
    {
      vault,
      sessionId: values.session,
      out: values.out,
      update: values.update === true,
      json: values.json === true,
    },
    (folder) => openCliApp(folder, appEnv),
    env.stdout,
  );
}

function streams(env: CliEnvironment) {
  return { stdout: env.stdout, stderr: env.stderr };
}

async function serve(
  values: { vault?: string; port?: string; 'no-summaries'?: boolean },
  { model, embeddings }: { model: Partial<ModelSettings>; embeddings: Partial<EmbeddingSettings> },
  dataDir: string,
  env: CliEnvironment,
): Promise<number> {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535, not "${values.port}".`);
  const vault = values.vault === undefined ? undefined : resolve(values.vault);
  if (vault !== undefined && !(await stat(vault).catch(() => null))?.isDirectory()) {
    throw new Error(`--vault ${vault} is not a folder.`);
  }
  const app = createApp({
    host: 'web',
    version,
    dataDir,
    resourcesDir: env.resourcesDir,
    vault,
    indexWorker: env.indexWorker,
    model,
    embeddings,
    backgroundSummaries: values['no-summaries'] ? false : undefined,
  });
  try {
    await app.start();
    const host = await startWebHost({ app, rendererDir: env.rendererDir, port });
    const opened = (await call(app, 'vault:tree', undefined)).vault;
    env.stdout(
      `Kasten is serving ${opened ? `the vault "${opened.name}" (${opened.noteCount} notes)` : 'no vault'}.`,
    );
    env.stdout(`Open ${host.url}`);
    await env.untilStopped();
    // The running answers stop as the app is disposed, first of all, and save what they streamed.
    await host.close();
    return 0;
  } finally {
    await app.dispose();
  }
}
