// Preloaded with `--import` into a Node process (see loaded-modules.ts): appends the URL of every module
// file it loads, in any of its threads, and of every built-in module a module imports (`node:http`), to
// the file named by $KASTEN_TEST_MODULE_LOG as it is loaded.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const log = process.env.KASTEN_TEST_MODULE_LOG;
if (log) {
  registerHooks({
    load(url, context, nextLoad) {
      if (url.startsWith('file:') || url.startsWith('node:')) appendFileSync(log, `${url}\n`);
      return nextLoad(url, context);
    },
  });
}
