import { runCli } from '../../src/main/hosts/cli';
import { builtIndexWorker } from './built-worker';
import { resourcesDir } from './temp-vault';

/** Runs a CLI command in this process (no browser host); resolves with its exit code and output. */
export async function kasten(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    rendererDir: '/nonexistent',
    resourcesDir,
    indexWorker: builtIndexWorker,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    // Never asked to stop: `ask` runs to its end, `serve` is not run this way.
    untilStopped: () => new Promise<void>(() => {}),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
