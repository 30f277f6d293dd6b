import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  openExternal: vi.fn(async () => undefined),
  windows: [] as {
    options: Record<string, unknown>;
    listeners: Map<string, () => void>;
    maximized: boolean;
  }[],
}));

vi.mock('electron', () => ({
  shell: { openExternal: electron.openExternal },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  BrowserWindow: class {
    listeners = new Map<string, () => void>();
    maximized = false;
    constructor(readonly options: Record<string, unknown>) {
      electron.windows.push(this);
    }
    on(name: string, listener: () => void) {
      this.listeners.set(name, listener);
    }
    maximize() {
      this.maximized = true;
    }
    isMaximized() {
      return this.maximized;
    }
    getNormalBounds() {
      return { x: 120, y: 80, width: 1100, height: 760 };
    }
  },
}));

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'kasten-window-'));
}

const { createMainWindow, hardenSession, hardenWebContents, openExternalSafely } =
  await import('../../../src/main/electron-window');

function fakeContents() {
  const events = new Map<string, (...args: unknown[]) => void>();
  let windowOpen: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    setWindowOpenHandler: (handler: typeof windowOpen) => (windowOpen = handler),
    on: (name: string, listener: (...args: unknown[]) => void) => events.set(name, listener),
  };
  return { contents, events, open: (url: string) => windowOpen!({ url }) };
}

const ourPage = 'file:///app/index.html';

/** Fires a navigation event as Electron does (details first, the deprecated url after); true if refused. */
function refuses(
  events: Map<string, (...args: unknown[]) => void>,
  name: string,
  url: string,
  isMainFrame = true,
): boolean {
  const event = { url, isMainFrame, preventDefault: vi.fn() };
  events.get(name)!(event, url);
  return event.preventDefault.mock.calls.length > 0;
}

type Handler = (...args: unknown[]) => unknown;

function fakeSession() {
  const handlers: Record<string, Handler> = {};
  const events = new Map<string, Handler>();
  const session = {
    setPermissionRequestHandler: (handler: Handler) => (handlers.request = handler),
    setPermissionCheckHandler: (handler: Handler) => (handlers.check = handler),
    setDevicePermissionHandler: (handler: Handler) => (handlers.device = handler),
    on: (name: string, listener: Handler) => events.set(name, listener),
    webRequest: { onHeadersReceived: (listener: Handler) => (handlers.headers = listener) },
  };
  hardenSession(session as never, (url) => url.startsWith('http://localhost:5173/'), "default-src 'none'");
  return { handlers, events };
}

describe('Electron window', () => {
  beforeEach(() => {
    electron.openExternal.mockClear();
    electron.windows.length = 0;
  });

  it('is created isolated and sandboxed, without Node in the page', () => {
    createMainWindow('/app/out/preload/index.cjs', join(scratch(), 'window.json'));
    expect(electron.windows[0]?.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
  });

  it('opens where it was closed, and forgets a place no display shows any more', () => {
    const file = join(scratch(), 'window.json');
    createMainWindow('/p.cjs', file);
    expect(electron.windows[0]?.options).toMatchObject({ width: 1440, height: 900 });
    electron.windows[0]?.listeners.get('close')?.();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      x: 120,
      y: 80,
      width: 1100,
      height: 760,
      maximized: false,
    });

    createMainWindow('/p.cjs', file);
    expect(electron.windows[1]?.options).toMatchObject({ x: 120, y: 80, width: 1100, height: 760 });

    writeFileSync(file, JSON.stringify({ x: 4000, y: 80, width: 1100, height: 760, maximized: true }));
    createMainWindow('/p.cjs', file);
    expect(electron.windows[2]?.options).toMatchObject({ width: 1440, height: 900 });
    expect(electron.windows[2]?.options).not.toHaveProperty('x');
    expect(electron.windows[2]?.maximized).toBe(false);
  });

  it('denies every new window and hands web links to the system browser', () => {
    const { contents, open } = fakeContents();
    hardenWebContents(contents as never, () => false);
    expect(open('https://example.org/')).toEqual({ action: 'deny' });
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(electron.openExternal).toHaveBeenCalledTimes(1);
    expect(electron.openExternal).toHaveBeenCalledWith('https://example.org/');
  });

  it('blocks navigation away from our page', () => {
    const { contents, events } = fakeContents();
    hardenWebContents(contents as never, (url) => url === ourPage);
    expect(refuses(events, 'will-navigate', ourPage)).toBe(false);
    expect(refuses(events, 'will-navigate', 'https://evil.example/')).toBe(true);
    expect(refuses(events, 'will-navigate', 'file:///etc/passwd')).toBe(true);
  });

  it('blocks server redirects away from our page, without opening them elsewhere', () => {
    const { contents, events } = fakeContents();
    hardenWebContents(contents as never, (url) => url === ourPage);
    expect(refuses(events, 'will-redirect', ourPage)).toBe(false);
    expect(refuses(events, 'will-redirect', 'https://evil.example/')).toBe(true);
    expect(refuses(events, 'will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(electron.openExternal).not.toHaveBeenCalled();
  });

  it("blocks a frame's navigation away from our page, leaving the main frame's links to will-navigate", () => {
    const { contents, events } = fakeContents();
    hardenWebContents(contents as never, (url) => url === ourPage);
    expect(refuses(events, 'will-frame-navigate', ourPage, false)).toBe(false);
    expect(refuses(events, 'will-frame-navigate', 'https://evil.example/', false)).toBe(true);
    expect(refuses(events, 'will-frame-navigate', 'file:///etc/passwd', false)).toBe(true);
    // Electron skips will-navigate when this refuses: a link the user clicked would not reach the browser.
    expect(refuses(events, 'will-frame-navigate', 'https://example.org/', true)).toBe(false);
    expect(electron.openExternal).not.toHaveBeenCalled();
  });

  it('picks no Bluetooth device for the page', () => {
    const { contents, events } = fakeContents();
    hardenWebContents(contents as never, () => true);
    const event = { preventDefault: vi.fn() };
    const callback = vi.fn();
    events.get('select-bluetooth-device')!(event, [{ deviceId: 'headset', deviceName: 'Headset' }], callback);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(callback).toHaveBeenCalledWith('');
  });

  it('refuses every permission request and permission check, and allows no device', () => {
    const { handlers } = fakeSession();
    const answer = vi.fn();
    handlers.request!({}, 'media', answer);
    expect(answer).toHaveBeenCalledWith(false);
    for (const permission of [
      'media',
      'hid',
      'serial',
      'usb',
      'clipboard-read',
      'geolocation',
      'notifications',
    ]) {
      expect(handlers.check!({}, permission, 'http://localhost:5173', {}), permission).toBe(false);
    }
    expect(handlers.device!({ deviceType: 'usb', origin: 'http://localhost:5173', device: {} })).toBe(false);
  });

  it('chooses no HID device, serial port or USB device when the page asks for one', () => {
    const { events } = fakeSession();
    const asks: [string, unknown[], unknown[]][] = [
      ['select-hid-device', [{ deviceList: [{ deviceId: 'hid-1' }] }], [null]],
      ['select-serial-port', [[{ portId: 'port-1' }], {}], ['']],
      ['select-usb-device', [{ deviceList: [{ deviceId: 'usb-1' }] }], []],
    ];
    for (const [name, args, cancelled] of asks) {
      const event = { preventDefault: vi.fn() };
      const callback = vi.fn();
      events.get(name)!(event, ...args, callback);
      expect(event.preventDefault, name).toHaveBeenCalled();
      expect(callback, name).toHaveBeenCalledWith(...cancelled);
    }
  });

  it("puts the CSP header on our page's responses, replacing any other, and leaves other responses alone", () => {
    const { handlers } = fakeSession();
    const respond = (details: Record<string, unknown>) => {
      const callback = vi.fn();
      handlers.headers!(details, callback);
      return callback.mock.calls[0]?.[0] as { responseHeaders?: Record<string, string[]> };
    };
    const page = respond({
      url: 'http://localhost:5173/',
      resourceType: 'mainFrame',
      responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': ['script-src *'] },
    });
    expect(page.responseHeaders).toEqual({
      'content-type': ['text/html'],
      'Content-Security-Policy': ["default-src 'none'"],
    });
    expect(
      respond({ url: 'https://elsewhere.example/', resourceType: 'mainFrame', responseHeaders: {} }),
    ).toEqual({});
    expect(respond({ url: 'http://localhost:5173/src/main.tsx', resourceType: 'script' })).toEqual({});
  });

  it('opens only http(s) and mailto links externally', () => {
    expect(openExternalSafely('https://example.org')).toBe(true);
    expect(openExternalSafely('http://example.org')).toBe(true);
    expect(openExternalSafely('mailto:me@example.org')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'nonsense']) {
      expect(openExternalSafely(url)).toBe(false);
    }
    expect(electron.openExternal).toHaveBeenCalledTimes(3);
  });
});
