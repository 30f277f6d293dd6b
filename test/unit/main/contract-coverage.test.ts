import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type KastenApp } from '../../../src/main/app';
import { registerIpcHandlers, type IpcMainLike } from '../../../src/main/hosts/electron';
import { startWebHost } from '../../../src/main/hosts/web';
import { requestChannels } from '../../../src/shared/contract';

function fakeIpcMain() {
  const handlers = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  return { ipcMain, handlers };
}

describe('every contract channel has a handler', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  function app(): KastenApp {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasten-unit-'));
    const kasten = createApp({ host: 'web', version: '0.0.0', dataDir, resourcesDir: dataDir, watch: false });
    cleanups.push(async () => {
      await kasten.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    });
    return kasten;
  }

  it('in the composition root', () => {
    expect(Object.keys(app().handlers).sort()).toEqual([...requestChannels].sort());
  });

  it('in the Electron host', () => {
    const { ipcMain, handlers } = fakeIpcMain();
    registerIpcHandlers(ipcMain, app(), () => true);
    expect([...handlers.keys()].sort()).toEqual([...requestChannels].sort());
  });

  it('in the browser host', async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'kasten-renderer-'));
    cleanups.push(() => rmSync(rendererDir, { recursive: true, force: true }));
    const host = await startWebHost({ app: app(), rendererDir, token: 'test-token' });
    cleanups.push(() => host.close());
    const post = (channel: string) =>
      fetch(`http://127.0.0.1:${host.port}/api/${channel}`, {
        method: 'POST',
        headers: { authorization: 'Bearer test-token' },
        body: '',
      });
    for (const channel of requestChannels) {
      const response = await post(channel);
      expect(response.status, channel).toBe(200);
      const body = (await response.json()) as { ok: boolean; error?: { message: string } };
      expect(body.error?.message ?? '', channel).not.toMatch(/unknown request channel/i);
    }
    expect((await post('vault:format-disk')).status).toBe(404);
  });
});
