import { app, dialog, ipcMain, safeStorage, session } from 'electron';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { eventChannels } from '../shared/contract';
import { createApp } from './app';
import { collectAfterColdIndex } from './composition/collect-after-cold-index';
import { resolveDataDir } from './data-dir';
import { createMainWindow, hardenSession, hardenWebContents } from './electron-window';
import {
  keychainBox,
  pageContentSecurityPolicy,
  registerIpcHandlers,
  rendererPageUrl,
  trustedPageCheck,
} from './hosts/electron';

const here = import.meta.dirname;
const { values: flags } = parseArgs({
  args: process.argv.slice(app.isPackaged ? 1 : 2),
  options: { vault: { type: 'string' }, 'data-dir': { type: 'string' } },
  strict: false,
});

async function main(): Promise<void> {
  await app.whenReady();
  const dataDir = typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined;
  const vault = typeof flags.vault === 'string' ? flags.vault : undefined;
  const pageUrl = rendererPageUrl({
    isPackaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    builtPage: join(here, '../renderer/index.html'),
  });
  const isOurPage = trustedPageCheck(pageUrl);
  hardenSession(session.defaultSession, isOurPage, pageContentSecurityPolicy(pageUrl));

  const appDataDir =
    dataDir || process.env.KASTEN_DATA_DIR ? resolveDataDir(dataDir) : app.getPath('userData');
  const window = createMainWindow(join(here, '../preload/index.cjs'), join(appDataDir, 'window.json'));
  hardenWebContents(window.webContents, isOurPage);
  const kasten = createApp({
    host: 'electron',
    version: app.getVersion(),
    dataDir: appDataDir,
    resourcesDir: app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources'),
    vault,
    indexWorker: join(here, 'index-worker.js'),
    afterColdIndex: collectAfterColdIndex,
    secretBox: keychainBox(safeStorage),
    pickFolder: async () => {
      const result = await dialog.showOpenDialog(window, {
        title: 'Open a vault',
        properties: ['openDirectory'],
      });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  });

  registerIpcHandlers(ipcMain, kasten, isOurPage);
  const stopEvents = kasten.events.subscribe((channel, payload) => {
    if (eventChannels.includes(channel) && !window.isDestroyed()) window.webContents.send(channel, payload);
  });

  await kasten
    .start()
    .catch((error: Error) => dialog.showErrorBox('Kasten could not open the vault', error.message));
  window.once('ready-to-show', () => window.show());
  await window.loadURL(pageUrl);

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    stopEvents();
    void kasten.dispose();
  });
}

void main();
