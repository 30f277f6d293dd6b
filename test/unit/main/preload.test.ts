import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoke: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: { name: 'Kasten' } })),
  listeners: new Map<string, Set<(...args: unknown[]) => void>>(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => electron.exposed.set(key, value) },
  ipcRenderer: {
    invoke: electron.invoke,
    on: (channel: string, listener: (...args: unknown[]) => void) => {
      const set = electron.listeners.get(channel) ?? new Set();
      electron.listeners.set(channel, set.add(listener));
    },
    removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
      electron.listeners.get(channel)?.delete(listener),
  },
}));

await import('../../../src/preload/index');
const kasten = electron.exposed.get('kasten') as import('../../../src/shared/kasten-api').KastenApi;

describe('preload', () => {
  it('exposes only window.kasten, namespaced by domain', () => {
    expect([...electron.exposed.keys()]).toEqual(['kasten']);
    expect(Object.keys(kasten).sort()).toEqual([
      'app',
      'attachments',
      'chat',
      'context',
      'drafts',
      'embeddings',
      'health',
      'images',
      'index',
      'items',
      'links',
      'mcp',
      'models',
      'notes',
      'prices',
      'prompts',
      'rules',
      'search',
      'sessions',
      'summaries',
      'tools',
      'vault',
      'web',
      'writes',
    ]);
    expect(typeof kasten.chat.send).toBe('function');
    expect(typeof kasten.chat.onMessage).toBe('function');
    expect(typeof kasten.notes.read).toBe('function');
    expect(typeof kasten.vault.onChanged).toBe('function');
  });

  it('invokes the contract channel and unwraps the envelope', async () => {
    await expect(kasten.app.info()).resolves.toEqual({ name: 'Kasten' });
    expect(electron.invoke).toHaveBeenLastCalledWith('app:info', undefined);
  });

  it('rejects with the error code and message of a failed request', async () => {
    electron.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'outside-vault', message: 'No.' } });
    await expect(kasten.notes.read({ path: '../x.md' })).rejects.toEqual({
      name: 'KastenError',
      code: 'outside-vault',
      message: 'No.',
    });
  });

  it('subscribes to events and unsubscribes with the returned function', () => {
    const seen: unknown[] = [];
    const unsubscribe = kasten.vault.onChanged((change) => seen.push(change));
    const emit = (payload: unknown) =>
      electron.listeners.get('vault:changed')?.forEach((l) => l({}, payload));
    emit({ reason: 'files' });
    unsubscribe();
    emit({ reason: 'opened' });
    expect(seen).toEqual([{ reason: 'files' }]);
  });
});
