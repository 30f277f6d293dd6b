import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { runBuiltInTool } from '../support/tool-calls';

// Search in every mode, related notes and the chat tools over them, through the app's contract.
const notes: Record<string, string> = {
  'Compaction.md':
    '---\ntags: [context]\n---\n# Compaction\n\nLong chats are compacted: the oldest turns are summarized, so the context window keeps room for the answer. Nothing is deleted; the summary replaces the turns in the request only.\n',
  'Budgets.md':
    '# Budgets\n\nThe context window is shared by a budget: the system prompt, the tools, the summary and the oldest turns of the chat, each within its share, with room kept for the answer.\n',
  'Index.md': '# Index\n\nStart with [[Compaction]].\n',
  'Tagged.md': '---\ntags: [context]\n---\n# Tagged\n\nA note about something else entirely.\n',
  'Gardening.md': '# Gardening\n\nTomatoes want sun, water at the roots and a stake before they fall over.\n',
};

const workspace = tempWorkspace();
let server: ScriptedModelServer;
let app: KastenApp;

beforeAll(async () => {
  mkdirSync(workspace.vault, { recursive: true });
  for (const [path, text] of Object.entries(notes)) writeFileSync(join(workspace.vault, path), text);
  server = await startScriptedModelServer();
  app = await startIndexedApp(workspace.dataDir, workspace.vault);
});

afterAll(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

const tools = () => ({
  readNote: app.vault.readNote.bind(app.vault),
  index: app.index,
  search: app.embeddings.search,
  related: app.embeddings.related,
  summary: () => '',
});
const numbers = (() => {
  const known = new Map<string, number>();
  return (path: string) => known.get(path) ?? (known.set(path, known.size + 1), known.size);
})();

describe('without an embedding model', () => {
  it('relates notes by links, tags and shared words, and marks the similar unlinked one as a missing link', async () => {
    const { notes: related, semantic } = await app.handlers['notes:related']({ path: 'Compaction.md' });
    expect(semantic?.code).toBe('off');
    const byPath = new Map(related.map((note) => [note.path, note]));
    expect(byPath.get('Index.md')).toMatchObject({
      reasons: expect.arrayContaining(['links here']),
      missingLink: false,
    });
    expect(byPath.get('Tagged.md')?.reasons).toContain('shares #context');
    const budgets = byPath.get('Budgets.md');
    expect(budgets?.missingLink).toBe(true);
    expect(budgets?.reasons[0]).toMatch(/^similar words: \S/);
    expect(byPath.has('Gardening.md')).toBe(false);
  });

  it('answers every search mode by words', async () => {
    for (const mode of ['lexical', 'semantic', 'hybrid', undefined] as const) {
      const hits = await app.handlers['search:notes']({ query: 'summarized turns', mode });
      expect(hits.map((hit) => hit.path)).toContain('Compaction.md');
      expect(hits.every((hit) => hit.ranker !== 'semantic')).toBe(true);
    }
  });

  it("gives find_related's reasons to the model, saying the similarity is by words", async () => {
    const outcome = await runBuiltInTool(tools(), numbers, 'find_related', { note: 'Compaction' });
    expect(outcome.ok).toBe(true);
    expect(outcome.output).toContain(
      'Similarity is by shared words, because no embedding model is configured',
    );
    const listed = JSON.parse(outcome.output.slice(outcome.output.indexOf('['))) as {
      path: string;
      reasons: string[];
      missingLink?: boolean;
    }[];
    expect(listed.find((note) => note.path === 'Budgets.md')).toMatchObject({ missingLink: true });
    expect(listed.find((note) => note.path === 'Index.md')?.reasons).toContain('links here');
    expect(outcome.notes.map((note) => note.path)).toContain('Budgets.md');
  });
});

describe('with an embedding model', () => {
  beforeAll(async () => {
    const status = await app.handlers['embeddings:configure']({
      enabled: true,
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-embedder',
      apiKeyEnv: null,
    });
    expect(status.settings.enabled).toBe(true);
    const report = await app.handlers['embeddings:run'](undefined);
    expect(report.error).toBeNull();
  });

  it('embeds every note and says so', async () => {
    const status = await app.handlers['embeddings:status'](undefined);
    expect(status).toMatchObject({
      pending: 0,
      unavailable: null,
      vectorsFrom: expect.stringContaining('scripted-embedder'),
    });
    expect(status.embedded).toBeGreaterThanOrEqual(Object.keys(notes).length);
  });

  it('searches by meaning in semantic mode, and fuses both by default', async () => {
    const semantic = await app.handlers['search:notes']({ query: 'tomatoes sun', mode: 'semantic' });
    expect(semantic[0]).toMatchObject({ path: 'Gardening.md', ranker: 'semantic' });
    const hybrid = await app.handlers['search:notes']({ query: 'tomatoes sun' });
    expect(hybrid[0]?.path).toBe('Gardening.md');
    // The note both rankings found keeps the lexical hit, with its words marked.
    expect(hybrid[0]?.ranker).toBe('all-words');
  });

  it('relates notes by meaning, with their similarity', async () => {
    const { notes: related, semantic } = await app.handlers['notes:related']({ path: 'Compaction.md' });
    expect(semantic).toBeNull();
    const budgets = related.find((note) => note.path === 'Budgets.md');
    expect(budgets?.reasons).toEqual([expect.stringMatching(/^similar: 0\.\d\d$/)]);
    expect(budgets?.missingLink).toBe(true);
    expect(budgets?.similarity).toBeGreaterThan(0);
  });

  it('falls back to words when the embedding server fails, and tells the model why', async () => {
    server.failEmbeddings(500);
    try {
      const hits = await app.handlers['search:notes']({ query: 'summarized turns', mode: 'hybrid' });
      expect(hits.map((hit) => hit.path)).toContain('Compaction.md');
      const outcome = await runBuiltInTool(tools(), numbers, 'search_notes', { query: 'summarized turns' });
      expect(outcome.ok).toBe(true);
      expect(outcome.output).toMatch(/^Searched by words only, because /);
      expect(outcome.output).toContain('Compaction.md');
    } finally {
      server.failEmbeddings(null);
    }
  });
});
