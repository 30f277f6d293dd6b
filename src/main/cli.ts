import { enableCompileCache } from 'node:module';
import { constants } from 'node:os';
import { join } from 'node:path';
import { runCli } from './hosts/cli';

const here = import.meta.dirname;
/** How long a command may take to stop after Ctrl+C or SIGTERM before the process exits anyway. */
const stopGraceMs = 1000;

let stopping: Promise<void> | null = null;

/**
 * Resolves on the first Ctrl+C or SIGTERM, for the command to stop and save what it has. If it has not
 * finished within `stopGraceMs`, or on a second signal, the process exits at once.
 */
function untilStopped(): Promise<void> {
  stopping ??= new Promise((resolve) => {
    let asked = false;
    const onSignal = (signal: NodeJS.Signals) => {
      const code = 128 + constants.signals[signal];
      if (asked) process.exit(code);
      asked = true;
      resolve();
      // Unreferenced: a command that finishes in time exits without waiting for it.
      setTimeout(() => process.exit(code), stopGraceMs).unref();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return stopping;
}

process.exitCode = await runCli(process.argv.slice(2), {
  rendererDir: join(here, '../renderer'),
  resourcesDir: join(here, '../../resources'),
  indexWorker: join(here, 'index-worker.js'),
  stdout: (text) => console.log(text),
  stderr: (text) => console.error(text),
  write: (text) => process.stdout.write(text),
  untilStopped,
  // The code of a command compiled once, in the user's own folder: `kasten search` on an indexed 10k
  // vault took 638 ms against 666 without (medians of 16 interleaved runs). A cache in a shared
  // temporary folder could be planted by another user; a folder it cannot create only means no cache.
  cacheCode: (dataDir) => void enableCompileCache(join(dataDir, 'compile-cache')),
});
