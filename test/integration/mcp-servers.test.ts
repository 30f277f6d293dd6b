import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpServers } from '../../src/main/mcp/mcp-servers';
import type { McpServerState } from '../../src/shared/mcp-domain';
import { isRunning, stdioTestServer } from '../support/mcp-test-servers';

let dir: string;
let servers: McpServers;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasten-mcp-'));
  servers = new McpServers();
});
afterEach(async () => {
  await servers.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const never = new AbortController().signal;
const startLog = () => join(dir, 'starts.log');
const starts = () => readFileSync(startLog(), 'utf8').trim().split('\n');

async function pidOf(qualifiedName: string): Promise<number> {
  const { output } = await servers.call(qualifiedName, {}, never);
  return Number(/^(\d+)$/m.exec(output)?.[1]);
}

describe('MCP servers', () => {
  it('starts a stdio server on the first tools() and lists its tools with qualified names and include modes', async () => {
    const states: McpServerState[] = [];
    servers.onStatus(([status]) => status && states.push(status.state));
    await servers.configure([stdioTestServer('files', [], { include: 'manual', tools: { echo: 'agent' } })]);
    expect(servers.statuses()).toMatchObject([{ id: 'files', state: 'stopped', tools: [] }]);

    const { tools, notices } = await servers.tools(never);

    expect(notices).toEqual([]);
    const echo = tools.find((tool) => tool.tool === 'echo');
    expect(echo).toMatchObject({
      server: 'files',
      serverName: 'files',
      qualifiedName: 'mcp__files__echo',
      description: 'Returns the text it is given.',
      include: 'agent',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    });
    expect(tools.find((tool) => tool.tool === 'add')?.include).toBe('manual');
    const [status] = servers.statuses();
    expect(status).toMatchObject({ state: 'ready', message: null });
    expect(status?.tools.map((tool) => tool.name)).toContain('huge');
    expect(Date.parse(status?.startedAt ?? '')).not.toBeNaN();
    expect(states.slice(states.indexOf('starting'))).toEqual(['starting', 'ready']);
  });

  it('round-trips echo and add, their output wrapped as untrusted data', async () => {
    await servers.configure([stdioTestServer('files')]);
    await servers.tools(never);

    const echo = await servers.call('mcp__files__echo', { text: 'hello from the vault' }, never);
    const add = await servers.call('mcp__files__add', { a: 2, b: 40 }, never);

    expect(echo.ok).toBe(true);
    expect(echo.output).toMatch(/^<tool-output source="mcp:files\/echo" trust="untrusted">\n/);
    expect(echo.output).toContain('\nhello from the vault\n</tool-output>');
    expect(add).toMatchObject({ ok: true, output: expect.stringContaining('\n42\n') });
  });

  it('gives a server only the configured environment, not the app’s own', async () => {
    process.env.KASTEN_MCP_TEST_SECRET = 'sk-must-not-leak';
    try {
      await servers.configure([stdioTestServer('files', [], { env: { GREETING: 'hej' } })]);
      await servers.tools(never);
      const secret = await servers.call('mcp__files__env', { name: 'KASTEN_MCP_TEST_SECRET' }, never);
      const greeting = await servers.call('mcp__files__env', { name: 'GREETING' }, never);
      expect(secret.output).toContain('\n(unset)\n');
      expect(greeting.output).toContain('\nhej\n');
    } finally {
      delete process.env.KASTEN_MCP_TEST_SECRET;
    }
  });

  it('starts a server once when two chats ask for tools at the same time', async () => {
    await servers.configure([stdioTestServer('files', [], { env: { MCP_TEST_START_LOG: startLog() } })]);

    const [first, second] = await Promise.all([servers.tools(never), servers.tools(never)]);
    await servers.tools(never);

    expect(first.tools.length).toBeGreaterThan(0);
    expect(second.tools).toEqual(first.tools);
    expect(starts()).toHaveLength(1);
  });

  it('leaves no child process after dispose()', async () => {
    await servers.configure([stdioTestServer('files')]);
    await servers.tools(never);
    const pid = await pidOf('mcp__files__pid');
    expect(isRunning(pid)).toBe(true);

    await servers.dispose();

    expect(isRunning(pid)).toBe(false);
    expect(servers.statuses()).toEqual([]);
  });

  it('stops a server removed from Settings and restarts one whose command changed', async () => {
    const log = { MCP_TEST_START_LOG: startLog() };
    await servers.configure([stdioTestServer('a', [], { env: log }), stdioTestServer('b', [], { env: log })]);
    await servers.tools(never);
    const [a, b] = [await pidOf('mcp__a__pid'), await pidOf('mcp__b__pid')];

    await servers.configure([stdioTestServer('a', ['--garbage'], { env: log, name: 'Renamed' })]);

    expect(isRunning(a)).toBe(false);
    expect(isRunning(b)).toBe(false);
    expect(servers.statuses()).toMatchObject([{ id: 'a', name: 'Renamed', state: 'stopped' }]);
    expect((await servers.call('mcp__b__pid', {}, never)).output).toBe(
      'There is no MCP tool named "mcp__b__pid".',
    );
    const restarted = await pidOf('mcp__a__pid');
    expect(starts().sort()).toEqual([a, b, restarted].map(String).sort());
  });

  it('keeps a running server when only its name or include modes change', async () => {
    await servers.configure([stdioTestServer('files')]);
    await servers.tools(never);
    const pid = await pidOf('mcp__files__pid');

    await servers.configure([stdioTestServer('files', [], { name: 'Files', tools: { echo: 'manual' } })]);
    const { tools } = await servers.tools(never);

    expect(await pidOf('mcp__files__pid')).toBe(pid);
    expect(tools.find((tool) => tool.tool === 'echo')).toMatchObject({
      serverName: 'Files',
      include: 'manual',
    });
  });

  it('stops waiting for servers at once when the chat is cancelled', async () => {
    await servers.configure([stdioTestServer('silent', ['--no-initialize'])]);
    const cancel = new AbortController();

    const listing = servers.tools(cancel.signal);
    cancel.abort();

    expect(await listing).toEqual({ tools: [], notices: [] });
    expect(servers.statuses()[0]?.state).toBe('starting');
  });

  it('offers no tools of a server that is turned off, and does not start it', async () => {
    await servers.configure([
      stdioTestServer('off', [], { enabled: false, env: { MCP_TEST_START_LOG: startLog() } }),
    ]);

    expect(await servers.tools(never)).toEqual({ tools: [], notices: [] });
    expect(servers.statuses()).toMatchObject([{ id: 'off', state: 'stopped' }]);
    expect(() => starts()).toThrow(/ENOENT/);
  });
});

const processGroup = join(import.meta.dirname, '..', '..', 'src', 'main', 'mcp', 'mcp-process-group.ts');

/**
 * A host in a child Node process: it starts a server process in a group of its own, as the stdio
 * transport does, which starts a process in a session of its own; then the host exits without closing it.
 */
const abandoningHost = `
const { spawn } = await import('node:child_process');
const { existsSync, writeFileSync } = await import('node:fs');
const { ServerProcesses } = await import(process.env.PROCESS_GROUP);
const processes = new ServerProcesses();
const stubborn = "process.on('SIGHUP', () => {}); process.on('SIGTERM', () => {}); setInterval(() => {}, 60000);";
const grandchild = stubborn + "require('node:fs').writeFileSync(process.env.GRANDCHILD_FILE, String(process.pid));";
const start = stubborn + "require('node:child_process').spawn(process.execPath, ['-e', " + JSON.stringify(grandchild) + "], { detached: true, stdio: 'ignore' }).unref();";
const env = { ...process.env, ...processes.environment() };
const server = spawn(process.execPath, ['-e', start], { detached: true, stdio: 'ignore', env });
processes.started(server.pid);
while (!existsSync(process.env.GRANDCHILD_FILE)) await new Promise((resolve) => setTimeout(resolve, 10));
writeFileSync(process.env.SERVER_FILE, String(server.pid));
process.exit(0);
`;

/** The pids of the two processes the `orphans` tool starts: one in the server's group, one in its own session. */
async function orphans(): Promise<number[]> {
  await servers.tools(never);
  const { ok, output } = await servers.call('mcp__kit__orphans', { dir }, never);
  expect(ok, output).toBe(true);
  const pids = /^(\d+) (\d+)$/m.exec(output)!.slice(1).map(Number);
  expect(pids.every(isRunning)).toBe(true);
  return pids;
}

describe('the processes of a stdio MCP server', () => {
  it('removing the server ends what it started, also a process that left its group and ignores SIGHUP and SIGTERM', async () => {
    await servers.configure([stdioTestServer('kit')]);
    const pids = await orphans();

    await servers.configure([]);

    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('disposing of the servers ends what they started', async () => {
    await servers.configure([stdioTestServer('kit')]);
    const pids = await orphans();

    await servers.dispose();

    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('a server sees no API key or token from the environment Kasten runs with, only the configured ones', async () => {
    const inherited = ['KASTEN_TEST_API_KEY', 'OPENAI_API_KEY', 'GITHUB_TOKEN'];
    for (const name of inherited) process.env[name] = 'secret';
    try {
      await servers.configure([stdioTestServer('kit', [], { env: { GIVEN_TOKEN: 'configured' } })]);
      await servers.tools(never);
      const { output } = await servers.call('mcp__kit__env_names', {}, never);
      const names = output.split('\n');

      expect(names.filter((name) => /_API_KEY$|_TOKEN$/.test(name))).toEqual(['GIVEN_TOKEN']);
      expect(names).toContain('PATH');
    } finally {
      for (const name of inherited) delete process.env[name];
    }
  });

  it('the host exiting without closing a server ends it and what it started, in its last moment', async () => {
    const files = { SERVER_FILE: join(dir, 'server.pid'), GRANDCHILD_FILE: join(dir, 'grandchild.pid') };
    const env = { ...process.env, PROCESS_GROUP: processGroup, ...files };
    const host = spawn(process.execPath, ['--input-type=module', '-e', abandoningHost], {
      env,
      stdio: 'inherit',
    });
    const [code] = (await once(host, 'exit')) as [number];
    const pids = [files.SERVER_FILE, files.GRANDCHILD_FILE].map((file) => Number(readFileSync(file, 'utf8')));

    expect(code).toBe(0);
    expect(pids.filter(isRunning)).toEqual([]);
  });
});
