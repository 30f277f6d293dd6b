import { contextBridge, ipcRenderer } from 'electron';
import type { Envelope } from '../shared/contract';
import { createKastenApi } from '../shared/kasten-api';

/** `window.kasten` on the desktop: the contract over IPC, nothing else of Electron is exposed. */
const kasten = createKastenApi({
  invoke: (channel, input) => ipcRenderer.invoke(channel, input) as Promise<Envelope<unknown>>,
  subscribe: (channel, listener) => {
    const forward = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
});

contextBridge.exposeInMainWorld('kasten', kasten);
