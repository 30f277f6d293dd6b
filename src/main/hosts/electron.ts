import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy } from '../../shared/content-security-policy';
import { requestChannels, type RequestChannel } from '../../shared/contract';
import type { KastenApp } from '../app';
import type { SecretBox } from '../llm/api-keys';
import { atMachine, dispatch } from './dispatch';

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
      return dispatch(app, channel, payload, atMachine);
    });
  requestChannels.forEach(register);
  return () => requestChannels.forEach((channel) => ipcMain.removeHandler(channel));
}

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The page the window loads: the built file. Only an unpackaged run (development) loads the dev server
 * electron-vite names in ELECTRON_RENDERER_URL, and only one on this machine: an installed app ignores
 * the variable, so nobody can point it at another page by setting it.
 */
export function rendererPageUrl(options: {
  isPackaged: boolean;
  devServerUrl: string | undefined;
  builtPage: string;
}): string {
  const built = pathToFileURL(options.builtPage).href;
  if (options.isPackaged || !options.devServerUrl) return built;
  try {
    const url = new URL(options.devServerUrl);
    const local = ['http:', 'https:'].includes(url.protocol) && loopbackHosts.includes(url.hostname);
    return local ? url.href : built;
  } catch {
    return built;
  }
}

// @vitejs/plugin-react's preamble: the one inline script the dev server adds to the page.
const reactRefreshPreamble = [
  'import { injectIntoGlobalHook } from "/@react-refresh";',
  'injectIntoGlobalHook(window);',
  'window.$RefreshReg$ = () => {};',
  'window.$RefreshSig$ = () => (type) => type;',
].join('\n');

/**
 * The CSP of the page at `pageUrl`: the one policy the build and the browser host use. The dev server's
 * page gets the two additions Vite cannot run without — React Refresh's preamble, allowed by its hash
 * and no other inline script, and the `<style>` elements that carry CSS in development — and no other.
 */
export function pageContentSecurityPolicy(pageUrl: string): string {
  if (new URL(pageUrl).protocol === 'file:') return contentSecurityPolicy;
  const preamble = createHash('sha256').update(reactRefreshPreamble).digest('base64');
  const additions: Record<string, string> = {
    'script-src': `'sha256-${preamble}'`,
    'style-src': "'unsafe-inline'",
  };
  return contentSecurityPolicy
    .split('; ')
    .map((directive) => {
      const addition = additions[directive.split(' ')[0] ?? ''];
      return addition ? `${directive} ${addition}` : directive;
    })
    .join('; ');
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
