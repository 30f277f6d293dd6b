import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { countTokens } from '../../src/main/request/count/token-count';
import { EmbeddingService, type EmbeddingServiceOptions } from '../../src/main/embeddings/embedding-service';
import { hybridSearch } from '../../src/main/embeddings/hybrid-search';
import { createEmbeddingModel, type EmbeddingModel } from '../../src/main/llm/embedding-model';
import type { EmbeddingProgress, EmbeddingSettings } from '../../src/shared/embedding-domain';
import { startIndexedApp } from '../support/indexed-app';
import { embed, startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace, waitFor } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;
let notices: string[];
let services: EmbeddingService[];

function settingsFor(overrides: Partial<EmbeddingSettings> = {}): EmbeddingSettings {
  return {
    enabled: true,
    provider: 'openai-compatible',
    baseUrl: `${server.url}/v1`,
    model: 'scripted-embedder',
    apiKeyEnv: null,
    ...overrides,
  };
}

/** The service as the app would wire it, over the app's index and vault. */
function embeddings(
  settings: () => EmbeddingSettings = () => settingsFor(),
  options: Partial<EmbeddingServiceOptions> = {},
): EmbeddingService {
  const service = new EmbeddingService({
    index: app.index,
    readNote: (path) => app.vault.readNote(path),
    settings,
    model: () => createEmbeddingModel(settings(), null),
    onNotice: (message) => notices.push(message),
    ...options,
  });
  services.push(service);
  return service;
}

/**
 * The scripted server's bag of words in-process, with more dimensions: at its 64, unrelated texts land at
 * similarities up to ±0.3 by chance, too close to related ones for tests of what counts as similar.
 */
const wideDimensions = 512;
const wideBagOfWords: EmbeddingModel = {
  name: 'wide-bag-of-words',
  identity: 'wide-bag-of-words (test)',
  embed: async (texts) => texts.map((text) => embed(text, wideDimensions)),
};

/** Every text sent to be embedded, from the first request on, or from request `from` on. */
function sentTexts(from = 0): string[] {
  return server.embeddingInputs().slice(from).flat();
}

async function edit(path: string, content: string): Promise<void> {
  writeFileSync(join(workspace.vault, path), content);
  await app.index.applyChanges([{ type: 'change', path, at: Date.now() }]);
}

const zettelkasten = (origins: string) =>
  [
    '---',
    'aliases: [ZK]',
    'tags: [method]',
    '---',
    '# Zettelkasten method',
    '',
    'A way of keeping notes as small, linked cards.',
    '',
    '## Origins',
    '',
    origins,
    '',
    '## Links',
    '',
    'Every card links to others.',
    '',
  ].join('\n');

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  writeFileSync(
    join(workspace.vault, 'Zettelkasten method.md'),
    zettelkasten('Niklas Luhmann kept cards in wooden drawers.'),
  );
  server = await startScriptedModelServer();
  app = await startIndexedApp(workspace.dataDir, workspace.vault);
  notices = [];
  services = [];
});
afterEach(async () => {
  for (const service of services) await service.dispose();
  await app.dispose();
  await server.stop();
  workspace.remove();
});

describe('embedding a vault', () => {
  it('sends every passage once, prefixed with its title and headings, and stores a vector for each', async () => {
    const progress: EmbeddingProgress[] = [];
    const service = embeddings(undefined, { onProgress: (update) => progress.push(update) });
    const report = await service.run();

    expect(report).toMatchObject({ notesChunked: 3, embedded: 5, reused: 0, cancelled: false, error: null });
    expect(server.requests.filter((request) => request.path === '/v1/embeddings')).toHaveLength(1);
    expect(sentTexts().sort()).toEqual([
      // The body of Atomic notes is under its H1, which is its title: the title is not said twice.
      'Atomic notes\n\nOne idea per note, so that links point at exactly one thing. See [[Zettelkasten method#Links]].',
      'Gardening\n\nTomatoes need sun and water.',
      'Zettelkasten method\n\nA way of keeping notes as small, linked cards.',
      'Zettelkasten method > Links\n\nEvery card links to others.',
      'Zettelkasten method > Origins\n\nNiklas Luhmann kept cards in wooden drawers.',
    ]);
    expect(service.status()).toMatchObject({
      state: 'idle',
      embedded: 5,
      pending: 0,
      dimensions: 64,
      vectorsFrom: 'scripted-embedder at ' + `${server.url}/v1 (openai-compatible)`,
      unavailable: null,
    });
    expect(progress.at(-1)).toEqual({ state: 'idle', phase: 'embedding', done: 5, total: 5, error: null });
    expect(progress.some((update) => update.phase === 'chunking' && update.total === 3)).toBe(true);

    // Nothing changed: nothing is sent.
    expect(await service.run()).toMatchObject({ notesChunked: 0, embedded: 0 });
    expect(server.embeddingInputs()).toHaveLength(1);
  });

  it("uses Ollama's native /api/embed, with nomic-embed-text's task prefixes", async () => {
    const settings = () =>
      settingsFor({ provider: 'ollama', baseUrl: server.url, model: 'nomic-embed-text' });
    const service = embeddings(settings);
    expect(await service.run()).toMatchObject({ embedded: 5, error: null });
    const request = server.requests.find((candidate) => candidate.path === '/api/embed');
    expect(request?.body).toMatchObject({ model: 'nomic-embed-text' });
    expect(sentTexts()).toContain('search_document: Gardening\n\nTomatoes need sun and water.');

    const found = await service.semanticSearch('tomatoes', 3);
    expect(found.ok && found.value[0]?.path).toBe('Gardening.md');
    expect(sentTexts().at(-1)).toBe('search_query: tomatoes');
  });

  it('re-embeds only the section that was edited, and nothing for a renamed note', async () => {
    const service = embeddings();
    await service.run();
    const before = server.embeddingInputs().length;

    await edit('Zettelkasten method.md', zettelkasten('Luhmann numbered his cards by branching position.'));
    const report = await service.run();
    expect(sentTexts(before)).toEqual([
      'Zettelkasten method > Origins\n\nLuhmann numbered his cards by branching position.',
    ]);
    expect(report).toMatchObject({ notesChunked: 1, embedded: 1, reused: 2 });

    const afterEdit = server.embeddingInputs().length;
    renameSync(join(workspace.vault, 'Gardening.md'), join(workspace.vault, 'Vegetables.md'));
    await app.index.applyChanges([
      { type: 'unlink', path: 'Gardening.md', at: Date.now() },
      { type: 'add', path: 'Vegetables.md', at: Date.now() },
    ]);
    expect(await service.run()).toMatchObject({ notesChunked: 1, embedded: 0, reused: 1 });
    expect(server.embeddingInputs()).toHaveLength(afterEdit);
    const found = await service.semanticSearch('tomatoes sun', 5);
    expect(found.ok && found.value.map((hit) => hit.path)).not.toContain('Gardening.md');
    expect(found.ok && found.value[0]?.path).toBe('Vegetables.md');
  });

  it('cuts every note again when notes are cut another way, sending only the passages that differ', async () => {
    await embeddings().run();
    const report = await embeddings(undefined, { chunkOptions: { maxTokens: 8 } }).run();
    expect(report).toMatchObject({ notesChunked: 3, error: null });
    // "Gardening" and its one short line fit in 8 tokens either way: its vector is kept.
    expect(report.reused).toBeGreaterThanOrEqual(1);
    expect(sentTexts(1)).not.toContain('Gardening\n\nTomatoes need sun and water.');
    expect(sentTexts(1).filter((text) => text.startsWith('Zettelkasten method > Origins\n\n'))).toEqual([
      'Zettelkasten method > Origins\n\nNiklas Luhmann kept cards in',
      'Zettelkasten method > Origins\n\nwooden drawers.',
    ]);
  });

  it('keeps what was embedded when cancelled mid-run, and sends only the rest next time', async () => {
    let cancelled = false;
    const service: EmbeddingService = embeddings(undefined, {
      batchSize: 2,
      onProgress: (update) => {
        if (cancelled || update.phase !== 'embedding' || update.done !== 2) return;
        cancelled = true;
        service.cancel();
      },
    });
    const first = await service.run();
    expect(first).toMatchObject({ cancelled: true, embedded: 2, error: null });
    expect(service.status()).toMatchObject({ state: 'cancelled', embedded: 2, pending: 3 });
    expect(sentTexts()).toHaveLength(2);

    expect(await service.run()).toMatchObject({ cancelled: false, embedded: 3 });
    expect(sentTexts()).toHaveLength(5);
    expect(new Set(sentTexts()).size).toBe(5);
  });

  it('waits while the embedding server is busy with a chat answer, then goes on', async () => {
    let busy = true;
    const progress: EmbeddingProgress[] = [];
    const service = embeddings(undefined, {
      busy: () => busy,
      pausePollMs: 10,
      onProgress: (update) => progress.push(update),
    });
    const run = service.run();
    await waitFor(() => service.status().state === 'paused', 5000, 'the run to pause');
    expect(server.embeddingInputs()).toHaveLength(0);
    busy = false;
    expect(await run).toMatchObject({ embedded: 5 });
    expect(progress.map((update) => update.state)).toEqual(
      expect.arrayContaining(['running', 'paused', 'running', 'idle']),
    );
  });

  it('cuts a 2 MB note into at most 256 passages of at most 400 tokens, and says it was cut short', async () => {
    const words = (n: number) => Array.from({ length: 300 }, (_, i) => `w${n}x${i}`).join(' ');
    const paragraphs = Array.from({ length: 1000 }, (_, n) => `Paragraph ${n}: ${words(n)}.`);
    const huge = `# Huge\n\n${paragraphs.join('\n\n')}`;
    expect(huge.length).toBeGreaterThan(2_000_000);
    writeFileSync(join(workspace.vault, 'Huge.md'), huge);
    await app.index.applyChanges([{ type: 'add', path: 'Huge.md', at: Date.now() }]);

    const report = await embeddings().run();
    expect(report.truncatedNotes).toEqual(['Huge.md']);
    const passages = sentTexts()
      .filter((text) => text.startsWith('Huge\n\n'))
      .map((text) => text.slice('Huge\n\n'.length));
    expect(passages).toHaveLength(256);
    for (const passage of passages) expect(countTokens(passage)).toBeLessThanOrEqual(400);
    expect(passages[0]).toMatch(/^Paragraph 0: w0x0 w0x1 /);
  });
});

describe('when the embedding server changes or fails', () => {
  it('drops the vectors of another model and embeds everything again, with a notice', async () => {
    let model = 'scripted-embedder';
    const service = embeddings(() => settingsFor({ model }));
    await service.run();
    expect(sentTexts()).toHaveLength(5);

    model = 'another-embedder';
    expect(service.status().unavailable).toBe('the notes are being embedded again with another-embedder');
    const search = await service.semanticSearch('tomatoes');
    expect(search).toEqual({
      ok: false,
      unavailable: {
        code: 'rebuilding',
        message: 'the notes are being embedded again with another-embedder',
      },
    });

    expect(await service.run()).toMatchObject({ embedded: 5, reused: 0 });
    expect(sentTexts()).toHaveLength(10);
    expect(notices).toEqual([
      expect.stringMatching(
        /^The embedding model changed from scripted-embedder at .* to another-embedder at .*: the vectors of the old one were dropped/,
      ),
    ]);
    expect(service.status()).toMatchObject({ embedded: 5, unavailable: null });
    expect(service.status().vectorsFrom).toMatch(/^another-embedder at/);
  });

  it('embeds everything again when the server starts returning vectors of another length', async () => {
    const service = embeddings();
    await service.run();
    server.setEmbeddingDimensions(32);

    await edit('Gardening.md', '# Gardening\n\nPeppers need even more sun.\n');
    const report = await service.run();
    expect(report).toMatchObject({ error: null, cancelled: false });
    expect(notices).toEqual([
      expect.stringMatching(
        /now returns vectors of 32 dimensions where the stored ones have 64: every passage is embedded again\.$/,
      ),
    ]);
    // The edited passage, then every passage again (the first batch's vector is kept).
    expect(sentTexts(1)).toHaveLength(5);
    expect(service.status()).toMatchObject({ dimensions: 32, embedded: 5, pending: 0 });
    const found = await service.semanticSearch('peppers', 1);
    expect(found.ok && found.value[0]?.path).toBe('Gardening.md');
  });

  it('notices a new vector length at search time, says so and embeds again', async () => {
    const service = embeddings();
    await service.run();
    server.setEmbeddingDimensions(48);
    const search = await service.semanticSearch('tomatoes');
    expect(search).toMatchObject({ ok: false, unavailable: { code: 'rebuilding' } });
    await waitFor(
      () => service.status().dimensions === 48 && service.status().pending === 0,
      5000,
      'the rebuild',
    );
    expect(notices).toEqual([expect.stringMatching(/48 dimensions where the stored ones have 64/)]);
    expect(sentTexts()).toHaveLength(5 + 1 + 5);
    expect((await service.semanticSearch('tomatoes')).ok).toBe(true);
  });

  it('fails a run on vectors of different lengths in one answer, storing none of them', async () => {
    server.setEmbeddingDimensions((text) => (text.includes('Tomatoes') ? 32 : 64));
    const service = embeddings();
    const report = await service.run();
    expect(report.error).toMatch(
      /returned vectors of different lengths \(32 and 64\) for "scripted-embedder"/,
    );
    expect(service.status()).toMatchObject({ state: 'error', embedded: 0, pending: 5, dimensions: null });
  });

  it('fails a run on a base URL with no embeddings endpoint, saying what the server answered', async () => {
    const service = embeddings(() => settingsFor({ baseUrl: `${server.url}/broken/v1` }));
    const report = await service.run();
    expect(report.error).toMatch(/404/);
    expect(service.status()).toMatchObject({ state: 'error', embedded: 0, pending: 5 });
  });

  it("reports an unreachable server as the run's error; lexical search goes on, hybrid says why it is lexical only", async () => {
    const down = await startScriptedModelServer();
    await down.stop();
    const service = embeddings(() => settingsFor({ baseUrl: `${down.url}/v1` }));
    const report = await service.run();
    expect(report.error).toBe(
      `Cannot reach the embedding server at ${down.url}/v1: nothing is listening there; is it running?`,
    );
    expect(service.status()).toMatchObject({ state: 'error', embedded: 0 });
    expect(service.status().unavailable).toMatch(/^the notes have not been embedded yet \(cannot reach/);

    const lexical = await app.index.search({ query: 'tomatoes' });
    expect(lexical.map((hit) => hit.path)).toEqual(['Gardening.md']);
    const hybrid = await hybridSearch(
      { query: 'tomatoes' },
      {
        lexical: (request) => app.index.search(request),
        semantic: (query, limit, filter) => service.semanticPassages(query, limit, filter),
      },
    );
    expect(hybrid.hits).toEqual(lexical);
    expect(hybrid.lexicalOnly?.code).toBe('not-built');
  });

  it('answers a search whose query cannot be embedded with why, not an error', async () => {
    const service = embeddings();
    await service.run();
    server.failEmbeddings(503);
    const search = await service.semanticSearch('tomatoes');
    expect(search).toMatchObject({ ok: false, unavailable: { code: 'failed' } });
    expect(!search.ok && search.unavailable.message).toMatch(/503/);
  });
});

describe('searching by meaning', () => {
  it('finds the note sharing words with the query, its closest passage as the snippet', async () => {
    const service = embeddings(undefined, { model: () => wideBagOfWords });
    await service.run();
    const result = await service.semanticSearch('wooden drawers Luhmann', 3);
    expect(result.ok).toBe(true);
    const hits = result.ok ? result.value : [];
    expect(hits[0]).toMatchObject({
      path: 'Zettelkasten method.md',
      title: 'Zettelkasten method',
      headingPath: ['Zettelkasten method', 'Origins'],
      snippet: 'Niklas Luhmann kept cards in wooden drawers.',
    });
    // Notes sharing nothing with the query are not listed after it, however few the hits.
    expect(hits.map((hit) => hit.path)).toEqual(['Zettelkasten method.md']);

    const inFolder = await service.semanticSearch('wooden drawers', 3, { tag: 'method' });
    expect(inFolder.ok && inFolder.value.map((hit) => hit.path)).toEqual(['Zettelkasten method.md']);
    const outside = await service.semanticSearch('tomatoes', 3, { tag: 'method' });
    expect(outside).toEqual({ ok: true, value: [] });
  });

  it('fuses lexical and semantic hits: a note only the meaning finds joins the lexical ones', async () => {
    // A model that knows tomatoes are vegetables, as a real one does: the words themselves never meet.
    const knowing: EmbeddingModel = {
      name: 'knowing',
      identity: 'knowing (test)',
      embed: async (texts) =>
        texts.map((text) => embed(text.replace(/\bvegetables\b/gi, 'tomatoes'), wideDimensions)),
    };
    const service = embeddings(undefined, { model: () => knowing });
    await service.run();
    const hybrid = await hybridSearch(
      { query: 'cards vegetables', limit: 5 },
      {
        lexical: (request) => app.index.search(request),
        semantic: (query, limit, filter) => service.semanticPassages(query, limit, filter),
      },
    );
    expect(hybrid.lexicalOnly).toBeNull();
    // Found lexically too: its snippet is the lexical one, with the words marked.
    const zettel = hybrid.hits.find((hit) => hit.path === 'Zettelkasten method.md');
    expect(zettel?.snippet).toContain('\u0002');
    expect(zettel?.ranker).not.toBe('semantic');
    // Holding no word of the query, found by meaning alone.
    expect(hybrid.hits.find((hit) => hit.path === 'Gardening.md')).toMatchObject({ ranker: 'semantic' });
    // The notes far from both are not padding the list.
    expect(hybrid.hits.map((hit) => hit.path).sort()).toEqual(['Gardening.md', 'Zettelkasten method.md']);
  });

  it('gives the notes similar to a note, not the note itself', async () => {
    const service = embeddings(undefined, { model: () => wideBagOfWords });
    await service.run();
    const similar = service.similarNotes('Atomic notes.md', 5);
    expect(similar.ok).toBe(true);
    const paths = similar.ok ? similar.value.map((note) => note.path) : [];
    // Gardening shares nothing with it: not similar, however few the notes.
    expect(paths).toEqual(['Zettelkasten method.md']);
    expect(service.similarNotes('Missing.md')).toMatchObject({ ok: false, unavailable: { code: 'no-note' } });
  });

  it('says semantic search is off when no model is configured', async () => {
    const service = embeddings(() => settingsFor({ enabled: false }));
    expect(await service.semanticSearch('tomatoes')).toEqual({
      ok: false,
      unavailable: { code: 'off', message: 'no embedding model is configured' },
    });
    expect(service.status()).toMatchObject({ state: 'off', unavailable: 'no embedding model is configured' });
  });
});
