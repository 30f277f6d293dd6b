import { contextBridge, ipcRenderer } from 'electron';
import type { Envelope, EventPayload } from '../shared/contract';
import { createKastenApi } from '../shared/kasten-api';

/** `window.kasten` on the desktop: the contract over IPC, nothing else of Electron is exposed. */
const kasten = createKastenApi({
  invoke: (channel, input) => ipcRenderer.invoke(channel, input) as Promise<Envelope<unknown>>,
  subscribe: (channel, listener) => {
    // Only the main process sends on these channels, each payload typed by its bus.
    const forward = (_event: Electron.IpcRendererEvent, payload: EventPayload<typeof channel>) =>
      listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
});

contextBridge.exposeInMainWorld('kasten', kasten);
