import type { ModelSettings } from '../../shared/chat-domain';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import { asModelSettings, createEmbeddingModel, type EmbeddingModel } from '../llm/embedding-model';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

/** Ollama's `nomic-embed-text` on this machine, through Ollama's native API; off until turned on. */
export const defaultEmbeddingSettings: EmbeddingSettings = {
  enabled: false,
  provider: 'ollama',
  baseUrl: 'http://127.0.0.1:11434',
  model: 'nomic-embed-text',
  apiKeyEnv: null,
};

const settingKey = 'embeddings';

/** The embedding model settings, kept in the app database apart from the chat model's. */
export class EmbeddingSettingsStore {
  private readonly table: SettingsTable;

  constructor(
    db: SqliteDatabase,
    /** Settings given at start-up (CLI flags): they win over the stored ones until the user saves new ones. */
    private overrides: Partial<EmbeddingSettings> = {},
  ) {
    this.table = new SettingsTable(db);
  }

  get(): EmbeddingSettings {
    const stored = this.table.get(settingKey);
    return {
      ...defaultEmbeddingSettings,
      ...(stored === null ? {} : (JSON.parse(stored) as Partial<EmbeddingSettings>)),
      ...this.overrides,
    };
  }

  set(settings: EmbeddingSettings): EmbeddingSettings {
    this.table.put(settingKey, JSON.stringify(settings));
    this.overrides = {};
    return this.get();
  }
}

/** Whether two settings name the same server (a chat answer streaming there pauses embedding). */
export function sameServer(a: { baseUrl: string }, b: { baseUrl: string }): boolean {
  const origin = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);
  return origin(a.baseUrl) === origin(b.baseUrl);
}

/**
 * The embedding model of the settings in force, or null when embedding is off; built again only when
 * the settings or the key change. `key` is ApiKeys.key.
 */
export function embeddingModelOf(
  settings: () => EmbeddingSettings,
  key: (settings: ModelSettings) => string | null,
): () => EmbeddingModel | null {
  let last: { signature: string; model: EmbeddingModel } | null = null;
  return () => {
    const current = settings();
    if (!current.enabled) return null;
    const apiKey = key(asModelSettings(current));
    const signature = JSON.stringify([current, apiKey]);
    if (last?.signature !== signature) last = { signature, model: createEmbeddingModel(current, apiKey) };
    return last.model;
  };
}
