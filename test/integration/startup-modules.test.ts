import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentResult } from '../../src/shared/attachment-domain';
import { builtAttachmentWorker } from '../support/built-worker';
import { startKastenServer } from '../support/kasten-server';
import {
  heavyAmong,
  moduleLogEnvironment,
  packageOf,
  readModuleLog,
  type LoadedModules,
} from '../support/loaded-modules';
import { testServerScript } from '../support/mcp-test-servers';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

// The built app, run as a user runs it, with every module it loads logged: what a command does not use
// it does not load. Counts and times are measured by `npm run bench`, never asserted.

const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
let workspace: ReturnType<typeof tempWorkspace>;
let log: string;
let logs = 0;

beforeEach(() => {
  workspace = tempWorkspace('basic');
});
afterEach(() => workspace.remove());

/** A fresh log file in the workspace. */
function newLog(): string {
  log = join(workspace.base, `modules-${++logs}.log`);
  return log;
}

/** Runs `kasten ...args` in the workspace to its end with its modules logged; resolves with what it loaded. */
async function kasten(...args: string[]) {
  const env = { ...process.env, ...moduleLogEnvironment(newLog()) };
  const [command, ...rest] = args;
  const run = await promisify(execFile)(
    process.execPath,
    [bin, command!, '--data-dir', workspace.dataDir, ...rest],
    { env },
  );
  return { stdout: run.stdout, loaded: readModuleLog(log) };
}

/** The app's own built code a process loaded, as one text. */
function ownCode(loaded: LoadedModules): string {
  return loaded.files
    .filter((file) => packageOf(file) === null)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** Whether the process loaded the remark parser (bundled into the app's code, so found by its code). */
const loadedRemark = (loaded: LoadedModules) => ownCode(loaded).includes('function fromMarkdown(');

describe('starting Kasten', () => {
  it('kasten info loads none of the app: no services, database, web host or schema library', async () => {
    const info = await kasten('info');
    expect(info.stdout).toContain('Data directory:');
    expect([...info.loaded.packages]).toEqual([]);
    expect(ownCode(info.loaded)).not.toContain('function createApp(');
    expect(ownCode(info.loaded)).not.toContain('function startWebHost(');
    expect(loadedRemark(info.loaded)).toBe(false);
  });

  it('kasten info and kasten index load no MCP client, model SDK, PDF reader, KaTeX or Mermaid', async () => {
    const info = await kasten('info', '--json');
    expect(JSON.parse(info.stdout)).toMatchObject({ name: 'Kasten' });
    expect(heavyAmong(info.loaded)).toEqual([]);

    const index = await kasten('index', workspace.vault, '--json');
    expect(JSON.parse(index.stdout)).toMatchObject({ notes: expect.any(Number) });
    // The index was built: the parser and the database were loaded, nothing more.
    expect(index.loaded.packages).toContain('better-sqlite3');
    expect(heavyAmong(index.loaded)).toEqual([]);
    // Nor the web host, nor remark: the index parses notes with its own extractor.
    expect(index.loaded.packages).not.toContain('ws');
    expect(index.loaded.packages).not.toContain('sirv');
    expect(loadedRemark(index.loaded)).toBe(false);

    // A search of the indexed vault parses nothing: no worker pool is started for it.
    const search = await kasten('search', workspace.vault, 'ideas', '--json');
    expect(JSON.parse(search.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'Ideas.md' })]),
    );
    expect(search.loaded.packages).not.toContain('piscina');
    // Nor the web page fetcher: importing `node:http` loads Node's HTTP client, undici and HTTP/2 with it.
    expect(search.loaded.builtins).toContain('node:fs');
    expect(search.loaded.builtins).not.toContain('node:http');
    expect(search.loaded.builtins).not.toContain('node:https');
  });

  it('keeps the compiled code of a command in the data folder for the next run, not for info or serve', async () => {
    const cache = join(workspace.dataDir, 'compile-cache');
    const cached = () => (existsSync(cache) ? readdirSync(cache, { recursive: true }).length : 0);
    await kasten('info');
    const server = await startKastenServer({ vault: workspace.vault, dataDir: workspace.dataDir });
    await server.stop();
    expect(cached()).toBe(0);
    await kasten('index', workspace.vault);
    const afterIndex = cached();
    // One folder for this Node version, and a file for each module compiled.
    expect(afterIndex).toBeGreaterThan(10);
    // The next run reads what the first compiled; a search compiles little the index did not.
    await kasten('search', workspace.vault, 'ideas');
    expect(cached()).toBeLessThan(afterIndex * 1.5);
  });

  it('kasten serve prints its address and shows the vault’s notes without loading any of them', async () => {
    const server = await startKastenServer({
      vault: workspace.vault,
      dataDir: workspace.dataDir,
      env: moduleLogEnvironment(newLog()),
    });
    try {
      expect(heavyAmong(readModuleLog(log))).toEqual([]);
      expect(loadedRemark(readModuleLog(log))).toBe(false);
      // What the page asks first: the note tree, then a note.
      const token = new URL(server.url).searchParams.get('token');
      const call = async (channel: string, body?: unknown) => {
        const response = await fetch(`${server.origin}/api/${channel}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: body === undefined ? '' : JSON.stringify(body),
        });
        expect(response.status, channel).toBe(200);
        return JSON.stringify(await response.json());
      };
      expect(await call('vault:tree')).toContain('Home.md');
      expect(await call('notes:read', { path: 'Home.md' })).toContain('Ideas');
      expect(heavyAmong(readModuleLog(log))).toEqual([]);
      expect(loadedRemark(readModuleLog(log))).toBe(false);
      // A vault this small is indexed and searched on the main thread: no worker thread is started.
      await expect
        .poll(async () => (JSON.parse(await call('index:status')) as { value: unknown }).value)
        .toMatchObject({ report: { notes: expect.any(Number) } });
      expect(await call('search:results', { query: 'ideas', limit: 5 })).toContain('Ideas.md');
      expect(readModuleLog(log).packages).not.toContain('piscina');
    } finally {
      await server.stop();
    }
  });
});

describe('using a feature loads what it needs, and only that', () => {
  let model: ScriptedModelServer;
  beforeEach(async () => {
    model = await startScriptedModelServer();
  });
  afterEach(() => model.stop());

  it('an answer loads the AI SDK with its provider’s package only; a configured MCP server its SDK', async () => {
    const ask = (provider: string, baseUrl: string) =>
      kasten('ask', workspace.vault, 'Hello?', '--provider', provider, '--base-url', baseUrl, '--model', 'm');

    model.script([{ text: 'Hello from the model.' }]);
    const openAi = await ask('openai-compatible', `${model.url}/v1`);
    expect(openAi.stdout).toContain('Hello from the model.');
    expect(heavyAmong(openAi.loaded)).toEqual(['ai', '@ai-sdk/openai-compatible', '@ai-sdk/provider-utils']);

    await kasten('mcp', 'add', 'kit', '--', process.execPath, testServerScript);
    model.script([{ text: 'Hello with tools.' }]);
    const anthropic = await ask('anthropic', `${model.url}/v1`);
    expect(anthropic.stdout).toContain('Hello with tools.');
    // The server's tools were offered: it was started, through the MCP SDK.
    expect(JSON.stringify(model.chatRequests.at(-1)?.tools)).toContain('mcp__kit__echo');
    const loaded = heavyAmong(anthropic.loaded);
    expect(loaded).toEqual(expect.arrayContaining(['@modelcontextprotocol/sdk', 'ajv', '@ai-sdk/anthropic']));
    expect(loaded).not.toContain('@ai-sdk/openai-compatible');
    expect(loaded).not.toContain('ollama-ai-provider-v2');
    expect(loaded).not.toContain('unpdf');
  });

  it('a note linked in a question is read with the remark parser, loaded for it', async () => {
    model.script([{ text: 'Home links to the alpha project.' }]);
    const linked = await kasten(
      'ask',
      workspace.vault,
      'What is in [[Home]]?',
      '--provider',
      'openai-compatible',
      '--base-url',
      `${model.url}/v1`,
      '--model',
      'm',
    );
    expect(linked.stdout).toContain('Home links to the alpha project.');
    expect(JSON.stringify(model.chatRequests.at(-1))).toContain(
      'Start at [[Projects/Alpha|the alpha project]]',
    );
    expect(loadedRemark(linked.loaded)).toBe(true);
  });
});

describe('the attachment reading process', () => {
  it('loads the PDF reader for the first PDF, not for a text file', async () => {
    const fixture = (name: string) =>
      new Uint8Array(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'attachments', name)));
    const reader = spawn(process.execPath, [builtAttachmentWorker], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, ...moduleLogEnvironment(newLog()) },
    });
    const read = async (name: string): Promise<AttachmentResult> => {
      const answer = once(reader, 'message');
      reader.send({ name, bytes: fixture(name) });
      return (await answer)[0] as AttachmentResult;
    };
    try {
      expect(await read('notes.md')).toMatchObject({ ok: true, kind: 'markdown' });
      expect(heavyAmong(readModuleLog(log))).toEqual([]);
      expect(await read('two-pages.pdf')).toMatchObject({ ok: true, kind: 'pdf', pages: 2 });
      expect(heavyAmong(readModuleLog(log))).toEqual(['unpdf']);
    } finally {
      reader.kill();
    }
  });
});
