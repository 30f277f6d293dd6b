import { createHash } from 'node:crypto';
import react from '@vitejs/plugin-react';
import { describe, expect, it, vi } from 'vitest';
import {
  keychainBox,
  pageContentSecurityPolicy,
  registerIpcHandlers,
  rendererPageUrl,
  trustedPageCheck,
  type IpcMainLike,
} from '../../../src/main/hosts/electron';
import { contentSecurityPolicy } from '../../../src/shared/content-security-policy';
import type { Handlers } from '../../../src/shared/contract';

const page = 'file:///opt/Kasten/resources/app/out/renderer/index.html';

function setup() {
  const listeners = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void listeners.set(channel, listener),
    removeHandler: (channel) => void listeners.delete(channel),
  };
  const readNote = vi.fn(async ({ path }: { path: string }) => ({
    path,
    name: 'n',
    content: '# n',
    size: 3,
    modifiedAt: '',
  }));
  const handlers = { 'notes:read': readNote } as unknown as Handlers;
  const unregister = registerIpcHandlers(ipcMain, { handlers }, trustedPageCheck(page));
  const invoke = (channel: string, senderUrl: string | null, payload: unknown) =>
    listeners.get(channel)!({ senderFrame: senderUrl === null ? null : { url: senderUrl } }, payload);
  return { invoke, readNote, listeners, unregister };
}

describe('Electron IPC adapter', () => {
  it('passes a valid request from our page to the service, as from the user at the machine', async () => {
    const { invoke, readNote } = setup();
    await expect(invoke('notes:read', page, { path: 'a.md' })).resolves.toMatchObject({
      ok: true,
      value: { path: 'a.md' },
    });
    expect(readNote).toHaveBeenCalledWith({ path: 'a.md' }, { atMachine: true });
  });

  it('rejects a payload that fails the channel schema before any service runs', async () => {
    const { invoke, readNote } = setup();
    for (const payload of [undefined, { path: 42 }, { path: '' }, { path: 'a.md', extra: true }, 'a.md']) {
      await expect(invoke('notes:read', page, payload)).resolves.toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
    }
    expect(readNote).not.toHaveBeenCalled();
  });

  it('rejects a sender that is not our page', async () => {
    const { invoke, readNote } = setup();
    for (const sender of [null, 'https://evil.example/index.html', 'file:///tmp/other.html', 'not a url']) {
      await expect(invoke('notes:read', sender, { path: 'a.md' })).resolves.toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
    }
    expect(readNote).not.toHaveBeenCalled();
  });

  it('trusts only the dev server origin in development', () => {
    const trusted = trustedPageCheck('http://localhost:5173/');
    expect(trusted('http://localhost:5173/index.html')).toBe(true);
    expect(trusted('http://localhost:5174/')).toBe(false);
    expect(trusted('file:///index.html')).toBe(false);
  });

  it('unregisters every channel', () => {
    const { listeners, unregister } = setup();
    unregister();
    expect(listeners.size).toBe(0);
  });
});

describe('API key encryption on the desktop', () => {
  const safeStorage = (available: boolean, backend = 'gnome_libsecret') => ({
    isEncryptionAvailable: () => available,
    encryptString: (plain: string) => Buffer.from([...plain].reverse().join('')),
    decryptString: (sealed: Buffer) => [...sealed.toString()].reverse().join(''),
    getSelectedStorageBackend: () => backend,
  });

  it('seals keys with the system keychain', () => {
    const box = keychainBox(safeStorage(true), 'linux')!;
    const sealed = box.encrypt('sk-secret');
    expect(sealed.toString()).not.toContain('sk-secret');
    expect(box.decrypt(sealed)).toBe('sk-secret');
  });

  it('offers no storage without a keychain, rather than a key "protected" by a fixed password', () => {
    expect(keychainBox(safeStorage(false), 'darwin')).toBeNull();
    expect(keychainBox(safeStorage(true, 'basic_text'), 'linux')).toBeNull();
    expect(keychainBox(safeStorage(true, 'basic_text'), 'win32')).not.toBeNull();
  });
});

describe('the page the desktop window loads', () => {
  const builtPage = '/opt/Kasten/resources/app/out/renderer/index.html';

  it('is the built file in an installed app, whatever ELECTRON_RENDERER_URL says', () => {
    for (const devServerUrl of ['http://localhost:5173/', 'https://evil.example/', undefined]) {
      expect(rendererPageUrl({ isPackaged: true, devServerUrl, builtPage })).toBe(`file://${builtPage}`);
    }
  });

  it('is the dev server in development, but only one on this machine', () => {
    const page = (devServerUrl: string | undefined) =>
      rendererPageUrl({ isPackaged: false, devServerUrl, builtPage });
    expect(page('http://localhost:5173/')).toBe('http://localhost:5173/');
    expect(page('http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173/');
    for (const elsewhere of ['https://evil.example/', 'file:///tmp/other.html', 'not a url', undefined]) {
      expect(page(elsewhere), elsewhere).toBe(`file://${builtPage}`);
    }
  });

  it('has the CSP of the build and the browser host', () => {
    expect(pageContentSecurityPolicy(`file://${builtPage}`)).toBe(contentSecurityPolicy);
  });

  it('has the same CSP on the dev server, plus only the React Refresh preamble and injected styles', () => {
    const preamble = react.preambleCode.replace('__BASE__', '/');
    const hash = createHash('sha256').update(preamble).digest('base64');
    const directives = (policy: string) => policy.split('; ');
    const dev = directives(pageContentSecurityPolicy('http://localhost:5173/'));
    const changed = dev.filter((directive) => !directives(contentSecurityPolicy).includes(directive));
    expect(changed).toEqual([`script-src 'self' 'sha256-${hash}'`, "style-src 'self' 'unsafe-inline'"]);
    expect(dev).toHaveLength(directives(contentSecurityPolicy).length);
  });
});
