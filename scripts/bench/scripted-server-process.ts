// The scripted model server of the tests (test/support) in a process of its own, for the embedding-build
// benchmark: its bag-of-words vectors cost it a SHA-256 per word per 32 dimensions, which must not be
// counted as Kasten's work. Prints `{"url": …}` once listening; stops when its parent closes stdin.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { registerSourceHooks } from './source-hooks.ts';

/** Starts this file as a child process serving vectors of `dimensions`; resolves once it listens. */
export async function startScriptedServerProcess(dimensions: number) {
  const child = spawn(
    process.execPath,
    [
      '--experimental-strip-types',
      '--disable-warning=ExperimentalWarning',
      import.meta.filename,
      String(dimensions),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [line] = await Promise.race([
    (async () => {
      for await (const text of createInterface({ input: child.stdout })) return [text];
      return [''];
    })(),
    new Promise<string[]>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`exited with ${code}`))),
    ),
  ]);
  const { url } = JSON.parse(line ?? '') as { url: string };
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

if (process.argv[1] === import.meta.filename) {
  registerSourceHooks();
  const { startScriptedModelServer } = await import('../../test/support/scripted-model-server.ts');
  const server = await startScriptedModelServer({ embeddingDimensions: Number(process.argv[2] ?? 768) });
  console.log(JSON.stringify({ url: server.url }));
  process.stdin.resume();
  process.stdin.once('end', () => void server.stop().then(() => process.exit(0)));
}
