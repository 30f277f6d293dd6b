import { describe, expect, it } from 'vitest';
import { AppEvents } from '../../../src/main/app-events';
import { BackgroundEmbeddings } from '../../../src/main/embeddings/background-embeddings';
import type { EmbeddingService } from '../../../src/main/embeddings/embedding-service';
import type { EmbeddingReport } from '../../../src/shared/embedding-domain';
import type { VaultSummary } from '../../../src/shared/domain';

const report: EmbeddingReport = {
  notesChunked: 0,
  embedded: 0,
  reused: 0,
  truncatedNotes: [],
  cancelled: false,
  error: null,
  ms: 0,
};

/** A service that records its runs and resolves `next` at each. */
function fakeService(result: Partial<EmbeddingReport> = {}) {
  const calls: string[] = [];
  let notify: () => void = () => {};
  const service = {
    run: async () => {
      calls.push('run');
      notify();
      return { ...report, ...result };
    },
    cancel: () => calls.push('cancel'),
  };
  const next = () => new Promise<void>((resolve) => (notify = resolve));
  return { service: service as unknown as EmbeddingService, calls, next };
}

const vault = { path: '/v', name: 'v' } as VaultSummary;

describe('embedding in the background', () => {
  it('runs when a vault is opened, and once after a burst of index changes settles', async () => {
    const events = new AppEvents();
    const { service, calls, next } = fakeService();
    const background = new BackgroundEmbeddings({ service, events, enabled: () => true, settleMs: 20 });
    background.start();

    let ran = next();
    events.emit('vault:changed', { vault, reason: 'opened', paths: [], treeChanged: true });
    await ran;
    expect(calls).toEqual(['run']);

    events.emit('vault:changed', { vault, reason: 'files', paths: ['a.md'], treeChanged: false });
    ran = next();
    for (const path of ['a.md', 'b.md', 'c.md']) {
      events.emit('index:changed', { paths: [path], renamed: [], latencyMs: 1 });
    }
    await ran;
    expect(calls).toEqual(['run', 'run']);
    background.stop();
  });

  it('does nothing while turned off, and warns of a failing server once, not at every run', async () => {
    const events = new AppEvents();
    let enabled = false;
    const warnings: string[] = [];
    const { service, calls, next } = fakeService({ error: 'Cannot reach the model server.' });
    const background = new BackgroundEmbeddings({
      service,
      events,
      enabled: () => enabled,
      settleMs: 1,
      warn: (message) => warnings.push(message),
    });
    background.start();
    events.emit('vault:changed', { vault, reason: 'opened', paths: [], treeChanged: true });
    events.emit('index:changed', { paths: ['a.md'], renamed: [], latencyMs: 1 });
    enabled = true;
    // The restart after the settings changed is the first run: nothing ran before it.
    let ran = next();
    background.restart();
    await ran;
    expect(calls).toEqual(['cancel', 'run']);
    ran = next();
    events.emit('vault:changed', { vault, reason: 'returned', paths: [], treeChanged: true });
    await ran;
    // Every promise callback of the runs has run once the event loop turns.
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['cancel', 'run', 'run']);
    expect(warnings).toEqual(['Embeddings: Cannot reach the model server.']);
    background.stop();
  });
});
