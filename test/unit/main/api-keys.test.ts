import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeys, isKeyVariableAllowed, type ApiKeysOptions } from '../../../src/main/llm/api-keys';
import { ModelSettingsStore } from '../../../src/main/llm/model-settings';
import { openAppDatabase } from '../../../src/main/storage/app-database';
import type { SqliteDatabase } from '../../../src/main/storage/database';
import { SettingsTable } from '../../../src/main/storage/settings-table';
import type { ModelSettings } from '../../../src/shared/chat-domain';

const env = {
  HOME: '/home/someone',
  SECRET_THING: 'not-a-key',
  OPENAI_API_KEY: 'sk-openai',
  GITHUB_TOKEN: 'ghp-token',
  LAUNCH_SECRET: 'launch-key',
};
const openAi = 'https://api.openai.com/v1';
const elsewhere = 'https://collector.example/v1';

let dir: string;
let db: SqliteDatabase;
let store: ModelSettingsStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasten-keys-'));
  db = openAppDatabase(dir);
  store = new ModelSettingsStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function settings(overrides: Partial<ModelSettings> = {}): ModelSettings {
  return {
    provider: 'openai-compatible',
    baseUrl: openAi,
    model: 'gpt',
    apiKeyEnv: 'OPENAI_API_KEY',
    contextWindow: null,
    summaryModel: null,
    ...overrides,
  };
}

const desktop = { atMachine: true };
const browser = { atMachine: false };

function keys(options: Partial<ApiKeysOptions> = {}): ApiKeys {
  return new ApiKeys(db, { box: null, env, ...options });
}

describe('environment variables allowed as API keys', () => {
  it('allows names ending in _API_KEY or _TOKEN, and names given at launch, and nothing else', () => {
    expect(isKeyVariableAllowed('OPENAI_API_KEY')).toBe(true);
    expect(isKeyVariableAllowed('GITHUB_TOKEN')).toBe(true);
    expect(isKeyVariableAllowed('LAUNCH_SECRET', ['LAUNCH_SECRET'])).toBe(true);
    for (const name of [
      'HOME',
      'SECRET_THING',
      'PATH',
      'API_KEY_FILE',
      'TOKEN',
      'MY_TOKENS',
      'LAUNCH_SECRET',
    ]) {
      expect(isKeyVariableAllowed(name), name).toBe(false);
    }
  });

  it('refuses a settings change naming HOME or SECRET_THING, and never reads them', () => {
    const read: string[] = [];
    const watched = new Proxy(env, {
      get: (target, name: string) => (read.push(name), target[name as keyof typeof env]),
    });
    const apiKeys = keys({ env: watched });
    for (const name of ['HOME', 'SECRET_THING']) {
      const named = settings({ apiKeyEnv: name });
      expect(() => apiKeys.admit(named, desktop, true)).toThrow(
        expect.objectContaining({ code: 'forbidden', message: expect.stringContaining(`$${name}`) }),
      );
      store.set(named); // as an older version could have saved them
      expect(apiKeys.key(named)).toBeNull();
      expect(apiKeys.status(named)).toMatchObject({ source: null, refusal: expect.stringContaining(name) });
    }
    expect(read).not.toContain('HOME');
    expect(read).not.toContain('SECRET_THING');
  });

  it('reads a variable named at launch whatever its name, for the server named with it', () => {
    const named = settings({ apiKeyEnv: 'LAUNCH_SECRET' });
    const apiKeys = keys({ launchVariables: ['LAUNCH_SECRET'] });
    apiKeys.pairAtLaunch(named);
    expect(() => apiKeys.admit(named, browser)).not.toThrow();
    expect(apiKeys.key(named)).toBe('launch-key');
    expect(apiKeys.key({ ...named, baseUrl: elsewhere })).toBeNull();
  });

  it('reads no variable merely because its name looks like a key', () => {
    store.set(settings({ baseUrl: elsewhere, apiKeyEnv: 'GITHUB_TOKEN' }));
    expect(keys().key(settings({ baseUrl: elsewhere, apiKeyEnv: 'GITHUB_TOKEN' }))).toBeNull();
  });
});

describe('an environment key is bound to the server it was paired with', () => {
  it('sends the key to a server confirmed at the machine, with or without a trailing slash', () => {
    const apiKeys = keys();
    apiKeys.admit(settings(), desktop, true);
    expect(apiKeys.key(settings())).toBe('sk-openai');
    expect(apiKeys.key(settings({ baseUrl: `${openAi}/` }))).toBe('sk-openai');
    expect(apiKeys.status(settings())).toMatchObject({ source: 'environment', refusal: null });
  });

  it('does not take saved settings, or a confirmation an older version kept, as a pairing', () => {
    store.set(settings());
    new SettingsTable(db).put(`api-key-env OPENAI_API_KEY ${openAi}`, 'confirmed');
    const apiKeys = keys();
    expect(apiKeys.key(settings())).toBeNull();
    expect(apiKeys.status(settings()).refusal).toMatch(/\$OPENAI_API_KEY/);
  });

  it('counts the flags typed at launch as confirmed', () => {
    const apiKeys = keys({ launchVariables: ['GITHUB_TOKEN'] });
    apiKeys.pairAtLaunch(settings({ baseUrl: elsewhere, apiKeyEnv: 'GITHUB_TOKEN' }));
    expect(apiKeys.key(settings({ baseUrl: elsewhere, apiKeyEnv: 'GITHUB_TOKEN' }))).toBe('ghp-token');
  });

  it('asks at the machine before sending the key to a new server, names both, and remembers a yes', () => {
    const apiKeys = keys();
    apiKeys.admit(settings(), desktop, true);
    const moved = settings({ baseUrl: elsewhere });
    expect(apiKeys.key(moved)).toBeNull();
    expect(() => apiKeys.admit(moved, desktop)).toThrow(
      expect.objectContaining({
        code: 'confirm-key',
        message: expect.stringMatching(/\$OPENAI_API_KEY.*https:\/\/collector\.example\/v1/),
      }),
    );
    expect(apiKeys.key(moved)).toBeNull();

    apiKeys.admit(moved, desktop, true);
    expect(apiKeys.key(moved)).toBe('sk-openai');
    expect(() => apiKeys.admit(moved, browser)).not.toThrow();
  });

  it('refuses a yes from the browser host, saying where to confirm, and remembers nothing', () => {
    const apiKeys = keys({ launchVariables: ['OPENAI_API_KEY'] });
    apiKeys.pairAtLaunch(settings());
    const moved = settings({ baseUrl: elsewhere });
    for (const confirmKey of [false, true]) {
      expect(() => apiKeys.admit(moved, browser, confirmKey)).toThrow(
        expect.objectContaining({
          code: 'forbidden',
          message: expect.stringMatching(/desktop app.*--api-key-env OPENAI_API_KEY/),
        }),
      );
      expect(() => apiKeys.admit(moved, undefined, confirmKey)).toThrow(
        expect.objectContaining({ code: 'forbidden' }),
      );
    }
    expect(apiKeys.key(moved)).toBeNull();
    expect(apiKeys.key(settings({ apiKeyEnv: 'GITHUB_TOKEN' }))).toBeNull();
  });

  it('asks again for another variable on the same server', () => {
    const apiKeys = keys();
    apiKeys.admit(settings(), desktop, true);
    expect(() => apiKeys.admit(settings({ apiKeyEnv: 'GITHUB_TOKEN' }), desktop)).toThrow(
      expect.objectContaining({ code: 'confirm-key' }),
    );
    expect(apiKeys.key(settings({ apiKeyEnv: 'GITHUB_TOKEN' }))).toBeNull();
  });

  it('names the real host when the URL hides it behind user@', () => {
    const disguised = settings({ baseUrl: 'https://api.openai.com@collector.example/v1' });
    expect(() => keys().admit(disguised, desktop)).toThrow(/to https:\/\/collector\.example\/v1 before/);
  });

  it('needs no confirmation without an environment variable', () => {
    expect(() => keys().admit(settings({ baseUrl: elsewhere, apiKeyEnv: null }), browser)).not.toThrow();
  });
});
