import type { ModelSettings } from '../../shared/chat-domain';
import type { SummarySettings } from '../../shared/model-domain';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';
import { isLocalServer } from './model-prices';

/** Ollama on this machine through its native API, so that Kasten can set the window it runs with. */
export const defaultModelSettings: ModelSettings = {
  provider: 'ollama',
  baseUrl: 'http://127.0.0.1:11434',
  model: '',
  apiKeyEnv: null,
  contextWindow: null,
  summaryModel: null,
};

/** The chat model settings, kept in the app database (no key: keys never leave the main process's memory). */
export class ModelSettingsStore {
  private readonly table: SettingsTable;

  constructor(
    db: SqliteDatabase,
    /** Settings given at start-up (CLI flags): they win over the stored ones until the user saves new ones. */
    private overrides: Partial<ModelSettings> = {},
  ) {
    this.table = new SettingsTable(db);
  }

  get(): ModelSettings {
    const settings = {
      ...defaultModelSettings,
      ...this.read<Partial<ModelSettings>>('model'),
      ...this.overrides,
    };
    // `--base-url http://…/v1` alone names an OpenAI-compatible server: Ollama's native API is never at /v1.
    const openAiUrl = this.overrides.baseUrl !== undefined && /\/v1\/*$/.test(this.overrides.baseUrl);
    if (openAiUrl && this.overrides.provider === undefined && settings.provider === 'ollama') {
      return { ...settings, provider: 'openai-compatible' };
    }
    return settings;
  }

  set(settings: ModelSettings): ModelSettings {
    this.write('model', settings);
    this.overrides = {};
    return this.get();
  }

  /** Background summaries are on by default for a server on this machine, off for one that may charge. */
  summaries(): SummarySettings {
    const stored = this.read<Partial<SummarySettings>>('summaries');
    return { background: stored?.background ?? isLocalServer(this.get().baseUrl) };
  }

  setSummaries(settings: SummarySettings): SummarySettings {
    this.write('summaries', settings);
    return this.summaries();
  }

  private read<T>(key: string): T | undefined {
    const value = this.table.get(key);
    return value === null ? undefined : (JSON.parse(value) as T);
  }

  private write(key: string, value: unknown): void {
    this.table.put(key, JSON.stringify(value));
  }
}
