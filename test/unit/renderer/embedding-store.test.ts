import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmbeddingProgress, EmbeddingStatus } from '../../../src/shared/embedding-domain';

/** The main process as the store sees it: status answers the test releases, events it pushes. */
const main = vi.hoisted(() => {
  const listeners: ((progress: unknown) => void)[] = [];
  const answers: ((status: unknown) => void)[] = [];
  return {
    listeners,
    answers,
    api: {
      embeddings: {
        status: () => new Promise((resolve) => answers.push(resolve)),
        onProgress: (listener: (progress: unknown) => void) => listeners.push(listener),
      },
      vault: { onChanged: () => () => {} },
    },
  };
});
vi.mock('../../../src/renderer/src/api', () => ({
  kasten: main.api,
  describeError: (error: unknown) => String(error),
}));

const { embeddingsShown, startEmbeddingSync, useEmbeddingStore } =
  await import('../../../src/renderer/src/features/embeddings/embedding-store');

function status(progress: Partial<EmbeddingProgress>, enabled = true): EmbeddingStatus {
  return {
    state: 'idle',
    phase: null,
    done: 0,
    total: 0,
    error: null,
    ...progress,
    settings: {
      enabled,
      provider: 'ollama',
      baseUrl: 'http://127.0.0.1:11434',
      model: 'nomic-embed-text',
      apiKeyEnv: null,
    },
    embedded: 0,
    pending: 0,
    vectorsFrom: null,
    dimensions: null,
    notice: null,
    unavailable: null,
  };
}

const push = (progress: EmbeddingProgress) => main.listeners.forEach((listener) => listener(progress));
const answer = async (value: EmbeddingStatus) => {
  main.answers.shift()!(value);
  await vi.waitFor(() => expect(useEmbeddingStore.getState().status).toBe(value));
};

describe('embedding store', () => {
  beforeEach(() => {
    startEmbeddingSync();
  });

  it('keeps a progress event that arrived before the status answer asked earlier', async () => {
    expect(main.answers).toHaveLength(1);
    const running: EmbeddingProgress = {
      state: 'running',
      phase: 'embedding',
      done: 64,
      total: 800,
      error: null,
    };
    push(running);
    await answer(status({ state: 'idle' }));
    expect(useEmbeddingStore.getState().progress).toEqual(running);
  });

  it('counts a run that ends as a new revision and reads the counts again', async () => {
    const before = useEmbeddingStore.getState().revision;
    push({ state: 'idle', phase: 'embedding', done: 800, total: 800, error: null });
    expect(useEmbeddingStore.getState().revision).toBe(before + 1);
    expect(main.answers).toHaveLength(1);
    await answer(status({ state: 'idle', done: 800, total: 800 }));
    expect(useEmbeddingStore.getState().progress?.state).toBe('idle');
  });

  it('shows nothing once embeddings are off and no run goes on', async () => {
    void useEmbeddingStore.getState().load();
    await answer(status({ state: 'off' }, false));
    expect(embeddingsShown(useEmbeddingStore.getState())).toBe(false);
  });
});
