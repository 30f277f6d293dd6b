import type { ModelSettings } from '../../shared/chat-domain';
import type { KeyStatus } from '../../shared/model-domain';
import { AppError } from '../app-error';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';
import { trimmedBaseUrl } from './model-list';

/** Encryption the host offers for secrets at rest (Electron's `safeStorage`, backed by the OS keychain). */
export interface SecretBox {
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

/**
 * API keys, held only in the main process. The desktop app stores a key per server (base URL), encrypted
 * with the OS keychain; the CLI and browser host read the environment variable the settings name. A stored
 * key wins over the environment; neither is ever returned over the contract.
 */
export class ApiKeys {
  private readonly table: SettingsTable;

  constructor(
    db: SqliteDatabase,
    private readonly box: SecretBox | null,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly warn: (message: string) => void = console.warn,
  ) {
    this.table = new SettingsTable(db);
  }

  key(settings: ModelSettings): string | null {
    return this.stored(settings) ?? this.fromEnvironment(settings);
  }

  status(settings: ModelSettings): KeyStatus {
    const source =
      this.stored(settings) !== null
        ? 'stored'
        : this.fromEnvironment(settings) !== null
          ? 'environment'
          : null;
    return { source, canStore: this.box !== null };
  }

  /** Stores (or with null, forgets) the key for `settings`' server. */
  set(settings: ModelSettings, key: string | null): void {
    const name = settingName(settings);
    if (key === null) {
      this.table.delete(name);
      return;
    }
    if (!this.box) {
      throw new AppError(
        'unsupported',
        'This host cannot store keys. Put the key in an environment variable and name it in the settings.',
      );
    }
    const sealed = this.box.encrypt(key.trim()).toString('base64');
    this.table.put(name, sealed);
  }

  private stored(settings: ModelSettings): string | null {
    if (!this.box) return null;
    const sealed = this.table.get(settingName(settings));
    if (sealed === null) return null;
    try {
      return this.box.decrypt(Buffer.from(sealed, 'base64'));
    } catch (error) {
      this.warn(
        `The stored API key for ${settings.baseUrl} cannot be decrypted (${(error as Error).message}); enter it again.`,
      );
      return null;
    }
  }

  private fromEnvironment(settings: ModelSettings): string | null {
    const value = settings.apiKeyEnv ? this.env[settings.apiKeyEnv] : undefined;
    return value && value.trim() !== '' ? value.trim() : null;
  }
}

/** One key per server: an OpenRouter key is never sent to OpenAI. */
function settingName(settings: ModelSettings): string {
  return `api-key ${settings.provider} ${trimmedBaseUrl(settings)}`;
}
