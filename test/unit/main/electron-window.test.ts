import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  openExternal: vi.fn(async () => undefined),
  windows: [] as { options: Record<string, unknown> }[],
}));

vi.mock('electron', () => ({
  shell: { openExternal: electron.openExternal },
  BrowserWindow: class {
    constructor(readonly options: Record<string, unknown>) {
      electron.windows.push(this);
    }
  },
}));

const { createMainWindow, hardenWebContents, openExternalSafely } =
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

describe('Electron window', () => {
  beforeEach(() => {
    electron.openExternal.mockClear();
    electron.windows.length = 0;
  });

  it('is created isolated and sandboxed, without Node in the page', () => {
    createMainWindow('/app/out/preload/index.cjs');
    expect(electron.windows[0]?.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
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
    hardenWebContents(contents as never, (url) => url === 'file:///app/index.html');
    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      events.get('will-navigate')!(event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('file:///app/index.html')).toBe(false);
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
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
