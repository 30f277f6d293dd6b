import { requestChannels, type RequestChannel } from '../../shared/contract';
import type { KastenApp } from '../app';
import type { SecretBox } from '../llm/api-keys';
import { dispatch } from './dispatch';

/** The slice of Electron's `ipcMain` the adapter uses (so tests can hand in a fake). */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

export interface IpcInvokeEventLike {
  senderFrame: { url: string } | null;
}

/**
 * One `ipcMain.handle` per contract channel. The sender frame must be our own page and the payload
 * must pass the channel's schema before any service runs. Returns the function that unregisters.
 */
export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  app: Pick<KastenApp, 'handlers'>,
  isTrustedSender: (url: string) => boolean,
): () => void {
  const register = (channel: RequestChannel) =>
    ipcMain.handle(channel, async (event, payload) => {
      const url = event.senderFrame?.url;
      if (!url || !isTrustedSender(url)) {
        return {
          ok: false,
          error: { code: 'forbidden', message: `Refused ${channel} from an untrusted sender.` },
        };
      }
      return dispatch(app, channel, payload);
    });
  requestChannels.forEach(register);
  return () => requestChannels.forEach((channel) => ipcMain.removeHandler(channel));
}

/** The page the window loads: the dev server in development, the built file otherwise. */
export function trustedPageCheck(pageUrl: string): (url: string) => boolean {
  const page = new URL(pageUrl);
  return (url) => {
    let sender: URL;
    try {
      sender = new URL(url);
    } catch {
      return false;
    }
    if (page.protocol === 'file:') return sender.protocol === 'file:' && sender.pathname === page.pathname;
    return sender.origin === page.origin;
  };
}

/** The slice of Electron's `safeStorage` used for API keys. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
  /** Linux only: `basic_text` means no keychain, and a hard-coded password would "protect" the key. */
  getSelectedStorageBackend?(): string;
}

/** API key encryption backed by the OS keychain, or null when the system has none worth the name. */
export function keychainBox(safeStorage: SafeStorageLike, platform = process.platform): SecretBox | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return null;
  return {
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (sealed) => safeStorage.decryptString(sealed),
  };
}
