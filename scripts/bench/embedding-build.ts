// Building the embedding index: a run of the embedding service over a synthetic vault against the
// scripted model server (test/support), through the real OpenAI-compatible client, in batches of 32.
// The server runs in a process of its own (its hashing is not Kasten's work); this process's CPU time
// during the run is Kasten's: reading and cutting notes, the requests, parsing vectors, storing them.
import { openEmbeddedVault } from './embedding-parts.ts';
import { startScriptedServerProcess } from './scripted-server-process.ts';
import { registerSourceHooks } from './source-hooks.ts';

export interface BuildFigures {
  notes: number;
  megabytes: number;
  passages: number;
  dimensions: number;
  /** The whole run: cutting notes, requests, storing vectors. */
  ms: number;
  /** CPU time of this process (every thread) during the run: Kasten's own work. */
  cpuMs: number;
}

export async function measureEmbeddingBuild(
  notes = Number(process.env.BENCH_BUILD_NOTES ?? 300),
  dimensions = 768,
): Promise<BuildFigures> {
  registerSourceHooks();
  const { createEmbeddingModel } = await import('../../src/main/llm/embedding-model.ts');
  const server = await startScriptedServerProcess(dimensions);
  const model = createEmbeddingModel(
    {
      enabled: true,
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-embedder',
      apiKeyEnv: null,
    },
    null,
  );
  const vault = await openEmbeddedVault(notes, 43, model);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const report = await vault.service.run();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (report.error) throw new Error(report.error);
    return {
      notes: vault.notes,
      megabytes: vault.megabytes,
      passages: report.embedded,
      dimensions,
      ms,
      cpuMs: (used.user + used.system) / 1000,
    };
  } finally {
    await vault.close();
    await server.stop();
  }
}
