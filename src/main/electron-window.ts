import { BrowserWindow, shell, type WebContents } from 'electron';

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

/** No new windows, no navigation away from our page; links go to the system browser instead. */
export function hardenWebContents(contents: WebContents, isOurPage: (url: string) => boolean): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isOurPage(url)) return;
    event.preventDefault();
    openExternalSafely(url);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function createMainWindow(preloadPath: string): BrowserWindow {
  return new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 900,
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
}
