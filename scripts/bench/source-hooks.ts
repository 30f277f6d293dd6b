// Benchmarks run the services from src/ in their own process (the built bundle exports no services):
// src imports have no extensions and use parameter properties, which --experimental-strip-types cannot
// run, so these module hooks add the `.ts` and transform (not just strip) the TypeScript of files
// under src/ (and test/support/, for the scripted model server) with Node's own stripTypeScriptTypes.
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = join(import.meta.dirname, '..', '..');
const sourceRoots: string[] = [];
/** Lets this process import `root`'s src/ and test/support/ too (a benchmark compares two checkouts). */
export function addSourceRoot(root: string): void {
  for (const folder of [join(root, 'src'), join(root, 'test', 'support')]) {
    const url = pathToFileURL(folder + '/').href;
    if (!sourceRoots.includes(url)) sourceRoots.push(url);
  }
}
addSourceRoot(repoRoot);
const isSource = (url: string | undefined) => sourceRoots.some((root) => url?.startsWith(root));
let hooked = false;

/**
 * Lets this process import src/ and test/support/: extensionless relative imports get `.ts`, and their
 * TypeScript is transformed.
 */
export function registerSourceHooks(): void {
  if (hooked) return;
  hooked = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (
        isSource(context.parentURL) &&
        /^\.\.?\//.test(specifier) &&
        !/\.(?:[cm]?[jt]sx?|json)$/.test(specifier)
      ) {
        const url = new URL(`${specifier}.ts`, context.parentURL);
        if (existsSync(fileURLToPath(url))) return nextResolve(url.href, context);
      }
      return nextResolve(specifier, context);
    },
    load(url, context, nextLoad) {
      if (!isSource(url) || !url.endsWith('.ts')) return nextLoad(url, context);
      const source = readFileSync(fileURLToPath(url), 'utf8');
      return {
        format: 'module',
        source: stripTypeScriptTypes(source, { mode: 'transform', sourceUrl: url }),
        shortCircuit: true,
      };
    },
  });
}
