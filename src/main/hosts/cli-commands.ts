import { stat } from 'node:fs/promises';
import { isAbsolute, resolve, win32 } from 'node:path';
import type { ModelSettings } from '../../shared/chat-domain';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import { version } from '../version';
import { openCliApp, type CliAppEnvironment } from './cli-app';
import { CliUsageError as UsageError, limitFlag, vaultAndSubject } from './cli-arguments';
import { call } from './cli-call';
import { chatCommand, isChatCommand, modelFlags } from './cli-chat-route';
import { runEmbeddingCommand } from './cli-embedding-commands';
import { runExportCommand } from './cli-export-command';
import { askItemFlags } from './cli-items-commands';
import { runMcpCommand } from './cli-mcp-commands';
import { runUndoCommand, undoArguments } from './cli-undo-command';
import { runVaultCommand, searchModeFlag } from './cli-vault-commands';
import type { CliEnvironment, CliValues } from './cli';

// Every command but `info`, loaded once the arguments name one. `serve` loads the web host, and every
// command the app's services, only when it runs.

/** Runs the command `kasten` was given, with its arguments; resolves with the exit code. */
export async function runCommand(
  command: string,
  rest: string[],
  parsed: CliValues,
  { dataDir, embeddings }: { dataDir: string; embeddings: Partial<EmbeddingSettings> },
  env: CliEnvironment,
): Promise<number> {
  // The repeatable flags of `ask` are lists; the other flags are single values.
  const { pin, attach, rule, env: envFlags, ...values } = parsed;
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
    const open = async () =>
      (await import('../app')).createApp({ host: 'cli', version, dataDir, resourcesDir: env.resourcesDir });
    return runMcpCommand(rest, { ...flags, env: envFlags ?? [] }, open, env.stdout);
  }
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);
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
  values: { json?: boolean; broken?: boolean; limit?: string; mode?: string; profile?: boolean },
  run: RunSettings,
  env: CliEnvironment,
): Promise<number> {
  const { vault, subject } = vaultAndSubject(command, rest);
  const args = { command, vault, subject, json: values.json ?? false, broken: values.broken ?? false };
  return runVaultCommand(
    { ...args, limit: limitFlag(values), mode: searchModeFlag(values), profile: values.profile === true },
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
  const [{ createApp }, { startWebHost }, { collectAfterColdIndex }] = await Promise.all([
    import('../app'),
    import('./web'),
    import('../composition/collect-after-cold-index'),
  ]);
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
    afterColdIndex: collectAfterColdIndex,
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
