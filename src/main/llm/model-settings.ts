import type { ModelSettings } from '../../shared/chat-domain';
import type { SqliteDatabase } from '../storage/database';

/** Ollama on this machine, the default provider. */
export const defaultModelSettings: ModelSettings = {
  provider: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:11434/v1',
  model: '',
  apiKeyEnv: null,
  contextWindow: null,
};

/** The chat model settings, kept in the app database (no key: keys never leave the main process's memory). */
export class ModelSettingsStore {
  constructor(
    private readonly db: SqliteDatabase,
    /** Settings given at start-up (CLI flags) that win over the stored ones for this run. */
    private readonly overrides: Partial<ModelSettings> = {},
  ) {}

  get(): ModelSettings {
    const row = this.db
      .prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'model'")
      .get();
    const stored = row ? (JSON.parse(row.value) as Partial<ModelSettings>) : {};
    return { ...defaultModelSettings, ...stored, ...this.overrides };
  }

  set(settings: ModelSettings): ModelSettings {
    this.db
      .prepare(
        "INSERT INTO settings (key, value) VALUES ('model', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      )
      .run(JSON.stringify(settings));
    return this.get();
  }
}

/** The API key for `settings`, read from the environment variable they name. */
export function apiKeyFrom(settings: ModelSettings, env: NodeJS.ProcessEnv = process.env): string | null {
  if (settings.apiKeyEnv) return env[settings.apiKeyEnv] ?? null;
  return null;
}
