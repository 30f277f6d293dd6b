import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Packages a user should load only by using what needs them: the MCP SDK (with ajv, zod-to-json-schema and
 * cross-spawn), each provider SDK and the AI SDK, the PDF reader, and the renderer's KaTeX and Mermaid.
 */
export const heavyPackages = [
  '@modelcontextprotocol/sdk',
  'ajv',
  'zod-to-json-schema',
  'cross-spawn',
  'ai',
  '@ai-sdk/anthropic',
  '@ai-sdk/openai-compatible',
  '@ai-sdk/provider-utils',
  'ollama-ai-provider-v2',
  'unpdf',
  'linkedom',
  '@mozilla/readability',
  'turndown',
  'pdfjs-dist',
  'katex',
  'mermaid',
];

const hook = pathToFileURL(join(import.meta.dirname, 'module-log.mjs')).href;

/** The environment that makes a Node process (and each of its threads) log the modules it loads to `log`. */
export function moduleLogEnvironment(log: string): NodeJS.ProcessEnv {
  const options = [process.env.NODE_OPTIONS, `--import=${hook}`].filter(Boolean).join(' ');
  return { NODE_OPTIONS: options, KASTEN_TEST_MODULE_LOG: log };
}

export interface LoadedModules {
  /** Every module file loaded, once. */
  files: string[];
  /** Their size on disk, in bytes. */
  bytes: number;
  /** The packages they belong to, `@scope/name` or `name`. */
  packages: Set<string>;
  /** The built-in modules the code imported, as `node:http` (not those Node loads for itself). */
  builtins: Set<string>;
}

/** The package a module file belongs to: the path after its last `node_modules/`; null for the app's own. */
export function packageOf(file: string): string | null {
  const at = file.lastIndexOf('/node_modules/');
  if (at < 0) return null;
  const [first, second] = file.slice(at + '/node_modules/'.length).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : (first ?? null);
}

/** What a process logged so far (nothing when it has loaded no module yet). */
export function readModuleLog(log: string): LoadedModules {
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const builtins = new Set(urls.filter((url) => url.startsWith('node:')));
  const files = [...new Set(urls.filter((url) => url.startsWith('file:')))].map((url) => fileURLToPath(url));
  const packages = new Set(files.map(packageOf).filter((name): name is string => name !== null));
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  return { files, bytes, packages, builtins };
}

/** The heavy packages among those loaded. */
export function heavyAmong(loaded: LoadedModules): string[] {
  return heavyPackages.filter((name) => loaded.packages.has(name));
}
