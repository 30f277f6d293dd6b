import { describe, expect, it } from 'vitest';
import { requestChannels, type Envelope } from '../../../src/shared/contract';
import { createKastenApi, describeError, isKastenError } from '../../../src/shared/kasten-api';

describe('window.kasten built from the contract', () => {
  it('has one method per request channel, named domain.verb', async () => {
    const calls: string[] = [];
    const api = createKastenApi({
      invoke: async (channel): Promise<Envelope<unknown>> => (calls.push(channel), { ok: true, value: null }),
      subscribe: () => () => undefined,
    });
    for (const channel of requestChannels) {
      const [domain, verb] = channel.split(':') as [keyof typeof api, string];
      await (api[domain] as unknown as Record<string, (input?: unknown) => Promise<unknown>>)[verb]?.({
        path: 'a.md',
      });
    }
    expect(calls).toEqual(requestChannels);
  });

  it('rejects with a KastenError that keeps code and message', async () => {
    const api = createKastenApi({
      invoke: async () => ({ ok: false, error: { code: 'no-vault', message: 'No vault is open.' } }),
      subscribe: () => () => undefined,
    });
    const error = await api.vault.tree().catch((caught: unknown) => caught);
    expect(isKastenError(error)).toBe(true);
    expect(describeError(error)).toBe('No vault is open.');
  });
});
