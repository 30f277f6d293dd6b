import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppOptions, KastenApp } from '../../src/main/app';
import { atMachine, dispatch } from '../../src/main/hosts/dispatch';
import type { WebHost } from '../../src/main/hosts/web';
import { openAppDatabase } from '../../src/main/storage/app-database';
import { SettingsTable } from '../../src/main/storage/settings-table';
import type { McpStdioServerConfig } from '../../src/shared/mcp-domain';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { serveWorkspace } from '../support/web-host-app';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let app: KastenApp | null = null;
let host: WebHost | null = null;
let marker: string;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  marker = join(workspace.base, 'marker');
  model = await startScriptedModelServer({ models: [{ id: 'scripted-model' }] });
});
afterEach(async () => {
  await close();
  await model.stop();
  workspace.remove();
});

async function close(): Promise<void> {
  await host?.close();
  await app?.dispose();
  host = null;
  app = null;
}

async function serve(options: Partial<AppOptions> = {}): Promise<void> {
  const quiet = { watch: false, backgroundSummaries: false, backgroundEmbeddings: false };
  ({ app, host } = await serveWorkspace(workspace, { ...quiet, ...options }));
}

/** A request over the browser host with its token, as any holder of the address could send it. */
async function overBrowser(channel: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${host!.port}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host!.token}` },
    body: body === undefined ? '' : JSON.stringify(body),
  });
  return (await response.json()) as {
    ok: boolean;
    value?: unknown;
    error?: { code: string; message: string };
  };
}

/** A "server" whose command leaves a file behind: the file's existence says it was run. */
function markerServer(more: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  return {
    id: 'marker',
    name: 'Marker',
    enabled: true,
    include: 'always',
    tools: {},
    transport: 'stdio',
    command: '/bin/sh',
    args: ['-c', `touch '${marker}'`],
    env: {},
    ...more,
  };
}

/** What the data directory holds for MCP, read beside the running app. */
function storedMcp(): { servers: string | null; confirmations: string | null } {
  const db = openAppDatabase(workspace.dataDir);
  try {
    const table = new SettingsTable(db);
    return { servers: table.get('mcp:servers'), confirmations: table.get('mcp:confirmed-commands') };
  } finally {
    db.close();
  }
}

const modelFlags = () => ['--base-url', `${model.url}/v1`, '--model', 'scripted-model'];

describe('the browser token and MCP commands', () => {
  it('cannot add a command: refused as forbidden, saying where to add one; nothing is run or stored', async () => {
    await serve();
    const before = storedMcp();
    const refused = await overBrowser('mcp:configure', { servers: [markerServer()] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(refused.error!.message).toContain('kasten mcp add');
    expect(refused.error!.message).toContain('cannot start programs');
    expect(await overBrowser('tools:list')).toMatchObject({ ok: true });
    expect(await overBrowser('mcp:servers')).toMatchObject({
      value: { servers: [], commandsAllowed: false },
    });
    expect(storedMcp()).toEqual(before);
    expect(existsSync(marker)).toBe(false);
  });

  it('can switch a confirmed command off and on, but not change it or confirm one', async () => {
    await serve();
    const added = await dispatch(
      app!,
      'mcp:configure',
      { servers: [markerServer({ enabled: false })] },
      atMachine,
    );
    expect(added).toMatchObject({ ok: true, value: { unconfirmed: [], commandsAllowed: true } });
    const stored = storedMcp();

    const changed = markerServer({ enabled: false, args: ['-c', `touch '${marker}-2'`] });
    expect(await overBrowser('mcp:configure', { servers: [changed] })).toMatchObject({
      error: { code: 'forbidden' },
    });
    const withEnv = markerServer({ enabled: false, env: { LD_PRELOAD: '/tmp/x.so' } });
    expect(await overBrowser('mcp:configure', { servers: [withEnv] })).toMatchObject({
      error: { code: 'forbidden' },
    });
    const confirming = { servers: [markerServer({ enabled: false })], confirm: ['marker'] };
    expect(await overBrowser('mcp:configure', confirming)).toMatchObject({ error: { code: 'forbidden' } });
    expect(storedMcp()).toEqual(stored);

    const renamed = markerServer({ enabled: false, name: 'Renamed', include: 'manual' });
    expect(await overBrowser('mcp:configure', { servers: [renamed] })).toMatchObject({
      ok: true,
      value: { servers: [{ name: 'Renamed', include: 'manual', enabled: false }], unconfirmed: [] },
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('leaves a stored command that was never confirmed unstarted by tools:list, a chat and kasten ask, until confirmed at the machine', async () => {
    const db = openAppDatabase(workspace.dataDir);
    new SettingsTable(db).put('mcp:servers', JSON.stringify([markerServer()]));
    db.close();

    await serve({
      model: { provider: 'openai-compatible', baseUrl: `${model.url}/v1`, model: 'scripted-model' },
    });
    const view = await overBrowser('mcp:servers');
    expect(view).toMatchObject({ value: { unconfirmed: [{ id: 'marker' }] } });
    expect(JSON.stringify(view.value)).toMatch(
      /Not confirmed: it was saved before Kasten asked for confirmation/,
    );
    const tools = (await overBrowser('tools:list')) as { value: { notices: string[] } };
    expect(tools.value.notices.join('\n')).toMatch(/Marker” is not started\. Not confirmed/);
    const turn = await app!.chat.send({ text: 'Hello?' });
    expect((await turn.done).status).toBe('complete');
    await close();

    const asked = await kasten(
      'ask',
      workspace.vault,
      'Hello?',
      ...modelFlags(),
      '--data-dir',
      workspace.dataDir,
    );
    expect(asked.code, asked.err).toBe(0);
    expect(model.chatRequests).toHaveLength(2);
    expect(existsSync(marker)).toBe(false);

    const listed = await kasten('mcp', 'list', '--data-dir', workspace.dataDir);
    expect(listed.out).toMatch(/marker +not confirmed/);
    expect(await kasten('mcp', 'confirm', 'marker', '--data-dir', workspace.dataDir)).toMatchObject({
      code: 0,
    });
    await kasten('ask', workspace.vault, 'Hello again?', ...modelFlags(), '--data-dir', workspace.dataDir);
    expect(existsSync(marker)).toBe(true);
  });

  it('runs a command configured at the machine, and not one edited in the data directory since', async () => {
    await serve();
    await dispatch(app!, 'mcp:configure', { servers: [markerServer()] }, atMachine);
    await dispatch(app!, 'tools:list', undefined, atMachine);
    expect(existsSync(marker)).toBe(true);
    await close();

    const edited = markerServer({ args: ['-c', `touch '${marker}-edited'`] });
    const db = openAppDatabase(workspace.dataDir);
    new SettingsTable(db).put('mcp:servers', JSON.stringify([edited]));
    db.close();
    await serve();
    const view = await overBrowser('mcp:servers');
    expect(JSON.stringify(view.value)).toMatch(/it changed outside Kasten since it was confirmed/);
    await overBrowser('tools:list');
    expect(existsSync(`${marker}-edited`)).toBe(false);
  });
});

describe('the browser token and API keys', () => {
  it('cannot send GITHUB_TOKEN to a server of its choosing, even saying the user confirmed', async () => {
    await serve({ env: { GITHUB_TOKEN: 'ghp-secret' } });
    const draft = {
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      model: 'scripted-model',
      apiKeyEnv: 'GITHUB_TOKEN',
      contextWindow: null,
      confirmKey: true,
    };
    for (const channel of ['models:configure', 'models:test', 'models:list']) {
      const refused = await overBrowser(channel, draft);
      expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(refused.error!.message).toMatch(/desktop app.*--api-key-env GITHUB_TOKEN/);
    }
    // Without the variable the settings are taken; the token still goes nowhere.
    expect(await overBrowser('models:configure', { ...draft, apiKeyEnv: null })).toMatchObject({ ok: true });
    expect(await overBrowser('models:test')).toMatchObject({ ok: true });
    const headers = JSON.stringify(model.requests.map((request) => request.headers));
    expect(model.requests.length).toBeGreaterThan(0);
    expect(headers).not.toContain('ghp-secret');
  });

  it('cannot move the key named at launch to another server, which the launch server still gets', async () => {
    const collector = await startScriptedModelServer({ models: [{ id: 'scripted-model' }] });
    try {
      model.requireApiKey('launch-secret');
      const launch = {
        provider: 'openai-compatible' as const,
        baseUrl: `${model.url}/v1`,
        model: 'scripted-model',
      };
      await serve({
        env: { KASTEN_API_KEY: 'launch-secret' },
        model: { ...launch, apiKeyEnv: 'KASTEN_API_KEY' },
      });
      const moved = {
        ...launch,
        baseUrl: `${collector.url}/v1`,
        apiKeyEnv: 'KASTEN_API_KEY',
        contextWindow: null,
      };
      for (const confirmKey of [false, true]) {
        expect(await overBrowser('models:configure', { ...moved, confirmKey })).toMatchObject({
          error: { code: 'forbidden' },
        });
        expect(await overBrowser('models:test', { ...moved, confirmKey })).toMatchObject({
          error: { code: 'forbidden' },
        });
      }
      expect(await overBrowser('models:test')).toMatchObject({ ok: true, value: { ok: true } });
      expect(collector.requests).toHaveLength(0);
      expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer launch-secret');
    } finally {
      await collector.stop();
    }
  });
});
