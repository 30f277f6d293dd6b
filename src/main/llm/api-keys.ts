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

export interface ApiKeysOptions {
  /** The host's keychain; without one keys come from the environment only. */
  box: SecretBox | null;
  env?: NodeJS.ProcessEnv;
  /** Variables the user named when starting Kasten (`--api-key-env`): allowed whatever their name. */
  launchVariables?: readonly string[];
  /** The settings in force, saved or given at launch: their variable's key may go to their server. */
  settings: { get(): ModelSettings };
  warn?: (message: string) => void;
}

// Names that say they hold a key; anything else (HOME, a database password) is never read as one.
const keyVariableName = /^[A-Za-z_][A-Za-z0-9_]*_(API_KEY|TOKEN)$/;

/** Whether a key may be read from the variable `name`: it looks like a key, or the user named it at launch. */
export function isKeyVariableAllowed(name: string, launchVariables: readonly string[] = []): boolean {
  return keyVariableName.test(name) || launchVariables.includes(name);
}

/**
 * API keys, held only in the main process. The desktop app stores a key per server (base URL), encrypted
 * with the OS keychain; the CLI and browser host read the environment variable the settings name. A stored
 * key wins over the environment; neither is ever returned over the contract.
 *
 * A key from the environment goes only to a server the user confirmed it for: the one in the settings in
 * force, or one they confirmed when changing the settings. Whoever can change the settings (the browser
 * host's token is enough) cannot send any variable to any server without the user saying so.
 */
export class ApiKeys {
  private readonly table: SettingsTable;
  private readonly env: NodeJS.ProcessEnv;
  private readonly warn: (message: string) => void;

  constructor(
    db: SqliteDatabase,
    private readonly options: ApiKeysOptions,
  ) {
    this.table = new SettingsTable(db);
    this.env = options.env ?? process.env;
    this.warn = options.warn ?? console.warn;
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
    const refusal = this.refusal(settings);
    return { source, canStore: this.options.box !== null, refusal: refusal?.message ?? null };
  }

  /**
   * Lets `settings` be used (saved, listed, tested) or throws: a variable that may not be read is
   * `forbidden`; a server its key was not confirmed for is `confirm-key`, unless `confirmKey` says the
   * user just confirmed it, which is then remembered.
   */
  admit(settings: ModelSettings, confirmKey = false): void {
    const refusal = this.refusal(settings);
    if (refusal && (refusal.code === 'forbidden' || !confirmKey)) throw refusal;
    if (settings.apiKeyEnv !== null && !this.isCurrent(settings)) {
      this.table.put(confirmationName(settings.apiKeyEnv, settings), 'confirmed');
    }
  }

  /** Stores (or with null, forgets) the key for `settings`' server. */
  set(settings: ModelSettings, key: string | null): void {
    const name = settingName(settings);
    if (key === null) {
      this.table.delete(name);
      return;
    }
    if (!this.options.box) {
      throw new AppError(
        'unsupported',
        'This host cannot store keys. Put the key in an environment variable and name it in the settings.',
      );
    }
    const sealed = this.options.box.encrypt(key.trim()).toString('base64');
    this.table.put(name, sealed);
  }

  /** Why the variable `settings` name may not be read for their server, or null when it may. */
  private refusal(settings: ModelSettings): AppError | null {
    const name = settings.apiKeyEnv;
    if (name === null) return null;
    if (!isKeyVariableAllowed(name, this.options.launchVariables)) {
      return new AppError(
        'forbidden',
        `Kasten reads API keys only from variables named …_API_KEY or …_TOKEN, or one given with ` +
          `--api-key-env when it starts: it will not read $${name}.`,
      );
    }
    if (this.isCurrent(settings) || this.table.get(confirmationName(name, settings)) !== null) return null;
    return new AppError(
      'confirm-key',
      `Kasten has not sent $${name} to ${serverName(settings)} before: confirm that this server may have the key.`,
    );
  }

  /** The settings in force name this variable for this server (the user saved them, or typed the flags). */
  private isCurrent(settings: ModelSettings): boolean {
    const current = this.options.settings.get();
    return current.apiKeyEnv === settings.apiKeyEnv && trimmedBaseUrl(current) === trimmedBaseUrl(settings);
  }

  private stored(settings: ModelSettings): string | null {
    if (!this.options.box) return null;
    const sealed = this.table.get(settingName(settings));
    if (sealed === null) return null;
    try {
      return this.options.box.decrypt(Buffer.from(sealed, 'base64'));
    } catch (error) {
      this.warn(
        `The stored API key for ${settings.baseUrl} cannot be decrypted (${(error as Error).message}); enter it again.`,
      );
      return null;
    }
  }

  private fromEnvironment(settings: ModelSettings): string | null {
    if (settings.apiKeyEnv === null || this.refusal(settings) !== null) return null;
    const value = this.env[settings.apiKeyEnv];
    return value && value.trim() !== '' ? value.trim() : null;
  }
}

/** One key per server: an OpenRouter key is never sent to OpenAI. */
function settingName(settings: ModelSettings): string {
  return `api-key ${settings.provider} ${trimmedBaseUrl(settings)}`;
}

/** The server as the user should read it: without any `user@` that would make another host look familiar. */
function serverName(settings: ModelSettings): string {
  try {
    const url = new URL(settings.baseUrl);
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return trimmedBaseUrl(settings);
  }
}

/** The user confirmed that the key in `variable` may go to `settings`' server. */
function confirmationName(variable: string, settings: ModelSettings): string {
  return `api-key-env ${variable} ${trimmedBaseUrl(settings)}`;
}
