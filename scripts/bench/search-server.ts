// The search evaluation's harness (scripts/eval-search.ts): the built `kasten serve` on a throwaway copy
// of a fixture vault, indexed and, for semantic and hybrid modes, embedded, asked over HTTP as the
// browser page asks it; and the embedding model it is given.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKastenServer, type RunningServer } from '../../test/support/kasten-server.ts';
import { registerSourceHooks } from './source-hooks.ts';

export interface Hit {
  path: string;
  title: string;
  score: number;
  snippet: string;
  ranker: string;
}

export interface SearchServer {
  search(query: string, limit: number, mode: string): Promise<Hit[]>;
  /** Every note's path, title and aliases. */
  titles(): Promise<{ path: string; title: string; aliases: string[] }[]>;
}

type Server = RunningServer & { token: string };

/** The embedding model of the semantic and hybrid rows, as `kasten serve` flags, and its label. */
export async function startEmbedder(
  byMeaning: boolean,
): Promise<{ label: string; args: string[]; stop(): Promise<void> }> {
  const { EVAL_EMBED_URL: url, EVAL_EMBED_MODEL: model, EVAL_EMBED_PROVIDER: provider } = process.env;
  const keyEnv = process.env.EVAL_EMBED_KEY_ENV;
  if (!byMeaning) return { label: '', args: [], stop: async () => {} };
  if (url || model || provider) {
    const flags = {
      '--embed-url': url,
      '--embed-model': model,
      '--embed-provider': provider,
      '--embed-key-env': keyEnv,
    };
    const args = Object.entries(flags).flatMap(([flag, value]) => (value ? [flag, value] : []));
    return { label: model ?? 'nomic-embed-text', args, stop: async () => {} };
  }
  // The scripted server is TypeScript with extensionless imports: the benchmarks' module hooks load it.
  registerSourceHooks();
  const { startScriptedModelServer } = await import('../../test/support/scripted-model-server.ts');
  // At 512 dimensions texts sharing no word stay apart (the tests' choice); at 64 they come close by chance.
  const server = await startScriptedModelServer({ embeddingDimensions: 512 });
  return {
    label: 'scripted bag-of-words stand-in',
    args: [
      '--embed-provider',
      'openai-compatible',
      '--embed-url',
      `${server.url}/v1`,
      '--embed-model',
      'bag-of-words',
    ],
    stop: () => server.stop(),
  };
}

async function call(server: Server, channel: string, input?: unknown): Promise<unknown> {
  const response = await fetch(`${server.origin}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: input === undefined ? '' : JSON.stringify(input),
  });
  const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message ?? response.status}`);
  return envelope.value;
}

type Status = { progress: { state: string }; report: { notes: number; ms: number } | null };

/** Waits until the first index pass has finished: idle, with a report. */
async function untilIndexed(server: Server): Promise<{ notes: number; ms: number }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = (await call(server, 'index:status')) as Status;
    if (status.report && status.progress.state === 'idle') return status.report;
    if (Date.now() > deadline) throw new Error(`Indexing did not finish: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type EmbeddingState = {
  state: string;
  embedded: number;
  pending: number;
  unavailable: string | null;
  error: string | null;
};

/**
 * For semantic and hybrid modes: waits until every passage has a vector. Fails when embedding is off or
 * failed: the rows would silently be lexical ones.
 */
async function untilEmbedded(server: Server, vault: string): Promise<void> {
  const started = Date.now();
  const deadline = started + 30 * 60_000;
  for (;;) {
    const status = (await call(server, 'embeddings:status')) as EmbeddingState;
    if (status.state === 'off' || status.state === 'error' || status.state === 'cancelled') {
      throw new Error(`embedding ${vault}: ${status.state} — ${status.error ?? status.unavailable ?? ''}`);
    }
    if (status.state !== 'running' && status.pending === 0 && status.unavailable === null) {
      console.error(`embedded ${vault}: ${status.embedded} passages in ${Date.now() - started} ms`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`Embedding did not finish: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Runs `work` against a server on a throwaway copy of the vault at `folder` and a fresh data directory;
 * with `byMeaning`, once every passage has a vector.
 */
export async function withServedVault<T>(
  folder: string,
  name: string,
  { args, byMeaning }: { args: string[]; byMeaning: boolean },
  work: (server: SearchServer) => Promise<T>,
): Promise<T> {
  const base = mkdtempSync(join(tmpdir(), 'kasten-eval-'));
  const vault = join(base, name);
  cpSync(folder, vault, { recursive: true });
  const running = await startKastenServer({
    vault,
    dataDir: join(base, 'data'),
    args: ['--no-summaries', ...args],
  });
  const server = { ...running, token: new URL(running.url).searchParams.get('token') ?? '' };
  try {
    const report = await untilIndexed(server);
    console.error(`indexed ${name}: ${report.notes} notes in ${report.ms} ms`);
    if (byMeaning) await untilEmbedded(server, name);
    return await work({
      search: async (query, limit, mode) =>
        (await call(server, 'search:notes', { query, limit, mode })) as Hit[],
      titles: async () =>
        (await call(server, 'notes:titles')) as { path: string; title: string; aliases: string[] }[],
    });
  } finally {
    await server.stop();
    rmSync(base, { recursive: true, force: true });
  }
}
