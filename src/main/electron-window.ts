import { readFileSync, writeFileSync } from 'node:fs';
import { BrowserWindow, screen, shell, type Rectangle, type Session, type WebContents } from 'electron';

/** Only web and mail links leave the app, and only through the system's handler. */
export function openExternalSafely(url: string): boolean {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'mailto:'].includes(protocol)) return false;
  void shell.openExternal(url);
  return true;
}

/**
 * No new windows, no navigation away from our page — by a link, a script, a server redirect or a frame;
 * links go to the system browser instead. No webviews, no Bluetooth device picked for the page.
 */
export function hardenWebContents(contents: WebContents, isOurPage: (url: string) => boolean): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (isOurPage(event.url)) return;
    event.preventDefault();
    openExternalSafely(event.url);
  });
  // A redirect or a frame's navigation is never a link the user clicked: refused, not opened elsewhere.
  contents.on('will-redirect', (event) => {
    if (!isOurPage(event.url)) event.preventDefault();
  });
  // Electron asks this first, for every frame; refusing the main frame here would cancel it before
  // 'will-navigate' could hand the user's link to the system browser, so the main frame is left to that.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isOurPage(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('select-bluetooth-device', (event, _devices, callback) => {
    event.preventDefault();
    callback('');
  });
}

/**
 * The session our page runs in: every permission asked or checked is refused, no device (HID, serial,
 * USB) is ever chosen or allowed, and our page's responses carry `policy` as their CSP header — the
 * same policy the built page has in its meta tag, now also for the dev server's page.
 */
export function hardenSession(session: Session, isOurPage: (url: string) => boolean, policy: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault();
    callback(null);
  });
  session.on('select-serial-port', (event, _ports, _contents, callback) => {
    event.preventDefault();
    callback('');
  });
  session.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType !== 'mainFrame' || !isOurPage(details.url)) return callback({});
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    );
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [policy] } });
  });
}

interface WindowPlace extends Rectangle {
  maximized: boolean;
}

/** The window's last size and position, unless no connected display shows enough of it any more. */
function readWindowPlace(file: string): WindowPlace | null {
  let place: Partial<WindowPlace>;
  try {
    place = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowPlace>;
  } catch {
    return null;
  }
  const { x, y, width, height } = place;
  if (![x, y, width, height].every((value) => typeof value === 'number' && Number.isFinite(value)))
    return null;
  const bounds = { x: x!, y: y!, width: width!, height: height! };
  // A monitor unplugged since would leave the window off-screen: at least 100×50 px must stay reachable.
  const reachable = screen.getAllDisplays().some(({ workArea }) => {
    const across =
      Math.min(bounds.x + bounds.width, workArea.x + workArea.width) - Math.max(bounds.x, workArea.x);
    const down =
      Math.min(bounds.y + bounds.height, workArea.y + workArea.height) - Math.max(bounds.y, workArea.y);
    return across >= 100 && down >= 50;
  });
  return reachable ? { ...bounds, maximized: place.maximized === true } : null;
}

/** The main window, where it was last closed (`placeFile` remembers it). */
export function createMainWindow(preloadPath: string, placeFile: string): BrowserWindow {
  const place = readWindowPlace(placeFile);
  const window = new BrowserWindow({
    width: place?.width ?? 1440,
    height: place?.height ?? 900,
    ...(place ? { x: place.x, y: place.y } : {}),
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Kasten',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: true,
    },
  });
  if (place?.maximized) window.maximize();
  window.on('close', () => {
    const saved: WindowPlace = { ...window.getNormalBounds(), maximized: window.isMaximized() };
    try {
      writeFileSync(placeFile, JSON.stringify(saved));
    } catch {
      // A read-only data directory only costs the window's place.
    }
  });
  return window;
}
