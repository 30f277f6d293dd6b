import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeys, isKeyVariableAllowed, type ApiKeysOptions } from '../../../src/main/llm/api-keys';
import { ModelSettingsStore } from '../../../src/main/llm/model-settings';
import { openAppDatabase } from '../../../src/main/storage/app-database';
import type { SqliteDatabase } from '../../../src/main/storage/database';
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

function keys(options: Partial<ApiKeysOptions> = {}): ApiKeys {
  return new ApiKeys(db, { box: null, env, settings: store, ...options });
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
      expect(() => apiKeys.admit(named, true)).toThrow(
        expect.objectContaining({ code: 'forbidden', message: expect.stringContaining(`$${name}`) }),
      );
      store.set(named); // as an older version could have saved them
      expect(apiKeys.key(named)).toBeNull();
      expect(apiKeys.status(named)).toMatchObject({ source: null, refusal: expect.stringContaining(name) });
    }
    expect(read).not.toContain('HOME');
    expect(read).not.toContain('SECRET_THING');
  });

  it('reads a variable named at launch whatever its name', () => {
    const named = settings({ apiKeyEnv: 'LAUNCH_SECRET' });
    store = new ModelSettingsStore(db, { baseUrl: openAi, apiKeyEnv: 'LAUNCH_SECRET' });
    const apiKeys = keys({ launchVariables: ['LAUNCH_SECRET'] });
    expect(() => apiKeys.admit(named)).not.toThrow();
    expect(apiKeys.key(named)).toBe('launch-key');
  });
});

describe('an environment key is bound to the server it was confirmed for', () => {
  it('sends the key to the server of the settings in force', () => {
    store.set(settings());
    const apiKeys = keys();
    expect(apiKeys.key(settings())).toBe('sk-openai');
    expect(apiKeys.key(settings({ baseUrl: `${openAi}/` }))).toBe('sk-openai');
    expect(apiKeys.status(settings())).toMatchObject({ source: 'environment', refusal: null });
  });

  it('counts the flags typed at launch as confirmed', () => {
    store = new ModelSettingsStore(db, { baseUrl: elsewhere, apiKeyEnv: 'GITHUB_TOKEN' });
    const apiKeys = keys({ launchVariables: ['GITHUB_TOKEN'] });
    expect(apiKeys.key(settings({ baseUrl: elsewhere, apiKeyEnv: 'GITHUB_TOKEN' }))).toBe('ghp-token');
  });

  it('asks before sending the key to a new server, names the variable and the server, and remembers a yes', () => {
    store.set(settings());
    const apiKeys = keys();
    const moved = settings({ baseUrl: elsewhere });
    expect(apiKeys.key(moved)).toBeNull();
    expect(() => apiKeys.admit(moved)).toThrow(
      expect.objectContaining({
        code: 'confirm-key',
        message: expect.stringMatching(/\$OPENAI_API_KEY.*https:\/\/collector\.example\/v1/),
      }),
    );
    expect(apiKeys.key(moved)).toBeNull();

    apiKeys.admit(moved, true);
    expect(apiKeys.key(moved)).toBe('sk-openai');
    expect(() => apiKeys.admit(moved)).not.toThrow();
  });

  it('asks again for another variable on the same server', () => {
    store.set(settings());
    const apiKeys = keys();
    expect(() => apiKeys.admit(settings({ apiKeyEnv: 'GITHUB_TOKEN' }))).toThrow(
      expect.objectContaining({ code: 'confirm-key' }),
    );
    expect(apiKeys.key(settings({ apiKeyEnv: 'GITHUB_TOKEN' }))).toBeNull();
  });

  it('names the real host when the URL hides it behind user@', () => {
    store.set(settings());
    const disguised = settings({ baseUrl: 'https://api.openai.com@collector.example/v1' });
    expect(() => keys().admit(disguised)).toThrow(/to https:\/\/collector\.example\/v1 before/);
  });

  it('needs no confirmation without an environment variable', () => {
    store.set(settings());
    expect(() => keys().admit(settings({ baseUrl: elsewhere, apiKeyEnv: null }))).not.toThrow();
  });
});
