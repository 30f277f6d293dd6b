import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppOptions, KastenApp } from '../../src/main/app';
import type { SecretBox } from '../../src/main/llm/api-keys';
import { atMachine, dispatch, fromBrowser as browser } from '../../src/main/hosts/dispatch';
import { openAppDatabase } from '../../src/main/storage/app-database';
import { SettingsTable } from '../../src/main/storage/settings-table';
import type { Caller } from '../../src/shared/contract';
import type { ModelSettingsRequest } from '../../src/shared/model-domain';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp | null = null;

/** A keychain stand-in: reversible, and the plain key never appears in what it returns. */
const fakeKeychain: SecretBox = {
  encrypt: (plain) =>
    Buffer.from(`sealed:${Buffer.from(plain).toString('hex').split('').reverse().join('')}`),
  decrypt: (sealed) =>
    Buffer.from(sealed.toString().slice('sealed:'.length).split('').reverse().join(''), 'hex').toString(),
};

async function startApp(options: Partial<AppOptions> = {}): Promise<KastenApp> {
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    host: 'web',
    backgroundSummaries: false,
    ...options,
  });
  return app;
}

/** Calls a channel the way a host does (schema check included) and unwraps the envelope. */
async function call(
  channel: Parameters<typeof dispatch>[1],
  payload?: unknown,
  caller: Caller = atMachine,
): Promise<unknown> {
  const envelope = await dispatch(app!, channel, payload, caller);
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value;
}

function settings(overrides: Partial<ModelSettingsRequest> = {}): ModelSettingsRequest {
  return {
    provider: 'openai-compatible',
    baseUrl: `${server.url}/v1`,
    model: 'scripted-model',
    apiKeyEnv: null,
    contextWindow: null,
    summaryModel: null,
    ...overrides,
  };
}

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer({
    models: [{ id: 'scripted-model', contextLength: 32_768 }, { id: 'other-model' }],
  });
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await server.stop();
  workspace.remove();
});

describe('model settings over the contract', () => {
  it('lists the models of a draft, tests the connection and resolves the context window', async () => {
    await startApp();
    await expect(call('models:list', settings())).resolves.toEqual([
      { id: 'other-model', contextLength: null },
      { id: 'scripted-model', contextLength: 32_768 },
    ]);
    await expect(call('models:test', settings({ model: 'missing-model' }))).resolves.toMatchObject({
      ok: false,
      problem: 'unknown-model',
    });
    const unreachable = (await call('models:test', settings({ baseUrl: 'http://127.0.0.1:9/v1' }))) as {
      problem: string;
      message: string;
    };
    expect(unreachable.problem).toBe('unreachable');
    expect(unreachable.message).toContain('127.0.0.1:9');

    await call('models:configure', settings());
    await expect(call('models:window')).resolves.toEqual({ tokens: 32_768, source: 'provider' });
    await call('models:configure', settings({ contextWindow: 4_096 }));
    await expect(call('models:window')).resolves.toEqual({ tokens: 4_096, source: 'user' });
  });

  it('reads the key from the named environment variable and never hands it out', async () => {
    server.requireApiKey('env-secret');
    await startApp({ env: { KASTEN_API_KEY: 'env-secret' } });
    await expect(call('models:test', settings())).resolves.toMatchObject({ ok: false, problem: 'auth' });
    const keyed = settings({ apiKeyEnv: 'KASTEN_API_KEY', confirmKey: true });
    await expect(call('models:test', keyed)).resolves.toMatchObject({ ok: true });

    const setup = await call('models:configure', keyed);
    expect(setup).toMatchObject({ key: { source: 'environment', canStore: false } });
    expect(JSON.stringify(setup)).not.toContain('env-secret');
    // The browser host has no keychain: a key typed there is refused, not kept in plain text.
    await expect(call('models:key', { key: 'typed-secret' })).rejects.toThrow(/environment variable/);
  });

  it('keeps a key typed on the desktop encrypted, per server, and sends it only to that server', async () => {
    server.requireApiKey('typed-secret');
    await startApp({ secretBox: fakeKeychain });
    await call('models:configure', settings());
    const setup = await call('models:key', { key: 'typed-secret' });
    expect(setup).toMatchObject({ key: { source: 'stored', canStore: true } });
    expect(JSON.stringify(setup)).not.toContain('typed-secret');
    await expect(call('models:test')).resolves.toMatchObject({ ok: true });

    const turn = await app!.chat.send({ text: 'Hello?' });
    expect((await turn.done).status).toBe('complete');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer typed-secret');

    // Another server does not get this key.
    await expect(
      call('models:configure', settings({ baseUrl: 'http://localhost:9/v1' })),
    ).resolves.toMatchObject({
      key: { source: null },
    });
    await app!.dispose();
    app = null;
    const database = readFileSync(join(workspace.dataDir, 'kasten.sqlite'));
    // Stored as the keychain sealed it (base64 of "sealed…"), not as typed.
    expect(database.includes(Buffer.from('sealed').toString('base64'))).toBe(true);
    expect(database.includes('typed-secret')).toBe(false);
  });
});

describe('the summary model setting', () => {
  it('reads settings stored before it existed as the chat model, and keeps a chosen one across restarts', async () => {
    const db = openAppDatabase(workspace.dataDir);
    const older = {
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-model',
      apiKeyEnv: null,
      contextWindow: null,
    };
    new SettingsTable(db).put('model', JSON.stringify(older));
    db.close();
    await startApp();
    expect(await call('models:settings')).toMatchObject({ settings: { ...older, summaryModel: null } });
    expect(app!.models.summaryModelName()).toBe('scripted-model');
    // A request without it, as an older page sends, means the chat model too.
    await expect(call('models:configure', older)).resolves.toMatchObject({
      settings: { summaryModel: null },
    });

    await call('models:configure', settings({ summaryModel: 'other-model' }));
    await app!.dispose();
    await startApp();
    expect(await call('models:settings')).toMatchObject({ settings: { summaryModel: 'other-model' } });
    expect(app!.models.summaryModelName()).toBe('other-model');
    expect(app!.models.summaryModel()?.name).toBe('other-model');
    expect(app!.models.chatModel().name).toBe('scripted-model');
  });
});

describe('API keys from environment variables', () => {
  /** Calls a channel and returns the error code and message it fails with. */
  async function refusal(channel: Parameters<typeof dispatch>[1], payload: unknown, caller = atMachine) {
    const envelope = await dispatch(app!, channel, payload, caller);
    if (envelope.ok) throw new Error(`${channel} was not refused`);
    return envelope.error;
  }

  it('refuses to read HOME or SECRET_THING as a key, and sends their values nowhere', async () => {
    const env = { HOME: 'home-value', SECRET_THING: 'secret-value', KASTEN_API_KEY: 'env-secret' };
    await startApp({ env });
    for (const name of ['HOME', 'SECRET_THING']) {
      for (const channel of ['models:configure', 'models:test', 'models:list'] as const) {
        const error = await refusal(channel, settings({ apiKeyEnv: name, confirmKey: true }));
        expect(error.code).toBe('forbidden');
        expect(error.message).toContain(`$${name}`);
      }
    }
    expect(await call('models:settings')).toMatchObject({ settings: { apiKeyEnv: null } });
    const sent = JSON.stringify(server.requests.map((request) => request.headers));
    expect(sent).not.toMatch(/home-value|secret-value/);
  });

  it('reads a variable of any name given with --api-key-env for the server given with it', async () => {
    server.requireApiKey('launch-secret');
    await startApp({
      env: { LAUNCH_SECRET: 'launch-secret' },
      model: settings({ apiKeyEnv: 'LAUNCH_SECRET' }),
    });
    await expect(call('models:test')).resolves.toMatchObject({ ok: true });
    const turn = await app!.chat.send({ text: 'Hello?' });
    expect((await turn.done).status).toBe('complete');
    expect(server.chatRequests).toHaveLength(1);
    // Allowed to be read, but still only for the server it was given for.
    const elsewhere = settings({ baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'LAUNCH_SECRET' });
    await expect(call('models:test', elsewhere)).rejects.toThrow(/^confirm-key: .*LAUNCH_SECRET/);
    const fromBrowser = await refusal('models:configure', { ...elsewhere, confirmKey: true }, browser);
    expect(fromBrowser).toMatchObject({
      code: 'forbidden',
      message: /desktop app.*--api-key-env LAUNCH_SECRET/,
    });
  });

  it('sends the key to a new base URL only once the user confirms it', async () => {
    server.requireApiKey('env-secret');
    const collector = await startScriptedModelServer({ models: [{ id: 'scripted-model' }] });
    try {
      await startApp({ env: { KASTEN_API_KEY: 'env-secret' } });
      await call('models:configure', settings({ apiKeyEnv: 'KASTEN_API_KEY', confirmKey: true }));
      const first = await app!.chat.send({ text: 'Hello?' });
      expect((await first.done).status).toBe('complete');
      expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer env-secret');

      const moved = settings({ baseUrl: `${collector.url}/v1`, apiKeyEnv: 'KASTEN_API_KEY' });
      for (const channel of ['models:configure', 'models:test', 'models:list'] as const) {
        const error = await refusal(channel, moved);
        expect(error.code).toBe('confirm-key');
        expect(error.message).toContain('$KASTEN_API_KEY');
        expect(error.message).toContain(`${collector.url}/v1`);
      }
      // Refused before anything was sent, and the settings still name the confirmed server.
      expect(collector.requests).toHaveLength(0);
      expect(await call('models:settings')).toMatchObject({ settings: { baseUrl: `${server.url}/v1` } });

      await call('models:configure', { ...moved, confirmKey: true });
      const second = await app!.chat.send({ text: 'Hello again?' });
      expect((await second.done).status).toBe('complete');
      expect(collector.requests.at(-1)?.headers.authorization).toBe('Bearer env-secret');
    } finally {
      await collector.stop();
    }
  });
});

describe('note summaries in a chat', () => {
  it('gives a linked note the model summary when only its summary fits the request', async () => {
    server.script((request) => ({
      text: JSON.stringify(request.messages).includes('Summarize the note')
        ? 'Model summary of the note.'
        : 'OK',
    }));
    // Its usable 800 tokens hold the system prompt, the tools and the question with some 150 to spare:
    // too little for the note's head and tail, enough for its summary.
    await startApp({ model: settings({ contextWindow: 1_150 }) });
    const report = (await call('summaries:run')) as { summarized: number };
    expect(report.summarized).toBe(3);
    const turn = await app!.chat.send({ text: 'What does [[Zettelkasten method]] say?' });
    const answer = await turn.done;
    // What the note cost is recorded once the answer's first request has sized it.
    const question = app!.chat.session(answer.sessionId).messages[0]!;
    expect(question.references[0]).toMatchObject({ mode: 'summary' });
    expect(question.references[0]?.summary).toBe('Model summary of the note.');
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain('Model summary of the note.');
  });
});
