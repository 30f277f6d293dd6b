import type { ModelSettings } from '../../shared/chat-domain';
import type { Caller } from '../../shared/contract';
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
  /** Variables the user named when starting Kasten (`--api-key-env`): confirmable whatever their name. */
  launchVariables?: readonly string[];
  warn?: (message: string) => void;
}

// Names that say they hold a key; anything else (HOME, a database password) is never read as one.
const keyVariableName = /^[A-Za-z_][A-Za-z0-9_]*_(API_KEY|TOKEN)$/;

/**
 * Whether the variable `name` may be confirmed as a key at all: it looks like a key, or the user named it
 * at launch. Looking like one is not enough to be read: see `ApiKeys`.
 */
export function isKeyVariableAllowed(name: string, launchVariables: readonly string[] = []): boolean {
  return keyVariableName.test(name) || launchVariables.includes(name);
}

/**
 * API keys, held only in the main process. The desktop app stores a key per server (base URL), encrypted
 * with the OS keychain; the CLI and browser host read the environment variable the settings name. A stored
 * key wins over the environment; neither is ever returned over the contract.
 *
 * A variable is read only for a server the user paired it with: on the command line that started this
 * run, or confirmed at this machine (the desktop app). Saved settings alone pair nothing, since the
 * browser host's token can save settings; and the browser host can confirm nothing.
 */
export class ApiKeys {
  private readonly table: SettingsTable;
  private readonly env: NodeJS.ProcessEnv;
  private readonly warn: (message: string) => void;
  /** Variable and server pairs given on the command line of this run. */
  private readonly launchPairs = new Set<string>();

  constructor(
    db: SqliteDatabase,
    private readonly options: ApiKeysOptions,
  ) {
    this.table = new SettingsTable(db);
    this.env = options.env ?? process.env;
    this.warn = options.warn ?? console.warn;
  }

  /** Pairs the variable of `settings` with their server for this run: the user typed both at launch. */
  pairAtLaunch(settings: ModelSettings): void {
    if (settings.apiKeyEnv !== null) this.launchPairs.add(pairName(settings.apiKeyEnv, settings));
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
   * Lets `settings` be used (saved, listed, tested) or throws: a variable that may not be read, or one
   * not paired with the server when the browser host asks, is `forbidden`; at the machine a server its key
   * was not confirmed for is `confirm-key`, unless `confirmKey` says the user just confirmed it, which is
   * then remembered.
   */
  admit(settings: ModelSettings, caller: Caller | undefined, confirmKey = false): void {
    const refusal = this.refusal(settings);
    if (!refusal) return;
    if (refusal.code === 'forbidden') throw refusal;
    // No question the browser could answer: a yes from there would be the token holder's, not the user's.
    if (caller?.atMachine !== true) throw browserRefusal(settings);
    if (!confirmKey) throw refusal;
    this.table.put(pairName(settings.apiKeyEnv!, settings), 'confirmed');
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
    const pair = pairName(name, settings);
    if (this.launchPairs.has(pair) || this.table.get(pair) !== null) return null;
    return new AppError(
      'confirm-key',
      `Kasten has not sent $${name} to ${serverName(settings)} before: confirm that this server may have the key.`,
    );
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

/** Why a caller not at the machine cannot pair a key with a server, and where the user can. */
function browserRefusal(settings: ModelSettings): AppError {
  const server = serverName(settings);
  return new AppError(
    'forbidden',
    `Only someone at this machine can let $${settings.apiKeyEnv} go to ${server}: confirm it in Settings ` +
      `in the desktop app, or start Kasten again with --base-url ${server} --api-key-env ` +
      `${settings.apiKeyEnv}. The browser address can be opened by anyone who has it, so it cannot hand ` +
      `keys to a new server.`,
  );
}

/**
 * The user paired the key in `variable` with `settings`' server at this machine. Named apart from the
 * confirmations of earlier versions, which the browser host's token could write.
 */
function pairName(variable: string, settings: ModelSettings): string {
  return `api-key-env confirmed-at-machine ${variable} ${trimmedBaseUrl(settings)}`;
}
