import { join } from 'node:path';
import { runCli } from './hosts/cli';

const here = import.meta.dirname;

process.exitCode = await runCli(process.argv.slice(2), {
  rendererDir: join(here, '../renderer'),
  resourcesDir: join(here, '../../resources'),
  indexWorker: join(here, 'index-worker.js'),
  stdout: (text) => console.log(text),
  stderr: (text) => console.error(text),
  write: (text) => process.stdout.write(text),
  untilStopped: () =>
    new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }),
});
