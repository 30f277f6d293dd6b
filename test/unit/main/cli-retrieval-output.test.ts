import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../src/shared/index-domain';
import { CliUsageError, embeddingFlags } from '../../../src/main/hosts/cli-arguments';
import { describeEmbedding, describeLexicalOnly } from '../../../src/main/hosts/cli-embedding-commands';
import { describeHits, searchModeFlag } from '../../../src/main/hosts/cli-vault-commands';

const hit = (path: string, ranker: SearchHit['ranker'], score = 0.5): SearchHit => ({
  path,
  title: path.replace(/\.md$/, ''),
  score,
  snippet: `about \u0002${path}\u0003`,
  ranker,
});

describe('embeddingFlags', () => {
  it('leaves the stored settings alone when no --embed-* flag is given', () => {
    expect(embeddingFlags({ json: true, model: 'llama3' })).toEqual({});
  });

  it('turns embeddings on for the run with only the settings given', () => {
    expect(embeddingFlags({ 'embed-model': ' all-minilm ' })).toEqual({ enabled: true, model: 'all-minilm' });
    expect(
      embeddingFlags({
        'embed-provider': 'openai-compatible',
        'embed-url': 'http://127.0.0.1:1234/v1',
        'embed-key-env': 'LMSTUDIO_KEY',
      }),
    ).toEqual({
      enabled: true,
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:1234/v1',
      apiKeyEnv: 'LMSTUDIO_KEY',
    });
  });

  it('refuses a bad provider, address, model or variable name as wrong usage', () => {
    for (const values of [
      { 'embed-provider': 'anthropic' },
      { 'embed-url': 'localhost:11434' },
      { 'embed-url': 'file:///etc/passwd' },
      { 'embed-model': '  ' },
      { 'embed-key-env': 'MY-KEY' },
    ]) {
      expect(() => embeddingFlags(values), JSON.stringify(values)).toThrow(CliUsageError);
    }
  });
});

describe('searchModeFlag', () => {
  it('takes the three modes, none, and refuses anything else', () => {
    expect(searchModeFlag({ mode: 'semantic' })).toBe('semantic');
    expect(searchModeFlag({})).toBeUndefined();
    expect(() => searchModeFlag({ mode: 'Semantic' })).toThrow(/--mode must be lexical, semantic, hybrid/);
  });
});

describe('describeHits', () => {
  it('heads the runs of hits found by meaning and by some words, not a leading all-words run', () => {
    const text = describeHits([
      hit('a.md', 'all-words'),
      hit('b.md', 'semantic', 0.0161),
      hit('c.md', 'semantic'),
      hit('d.md', 'some-words'),
      hit('e.md', 'all-words'),
    ]);
    expect(text.split('\n').filter((line) => /^\S.*:$/.test(line))).toEqual([
      'Similar in meaning:',
      'Also matching some words:',
      'Matching every word:',
    ]);
    expect(text.startsWith('a — a.md (0.50)\n  about **a.md**')).toBe(true);
    // A fused score keeps enough digits to tell hits apart.
    expect(text).toContain('b — b.md (0.0161)');
  });

  it('says when nothing matched', () => {
    expect(describeHits([])).toBe('No matches.');
  });
});

describe('describeLexicalOnly', () => {
  it('says why search was lexical and what to do about it', () => {
    expect(describeLexicalOnly({ code: 'off', message: 'no embedding model is configured' })).toMatch(
      /^kasten: lexical only, because no embedding model is configured; to search by meaning, give one .*--embed-model NAME/,
    );
    expect(describeLexicalOnly({ code: 'not-built', message: 'the notes have not been embedded yet' })).toBe(
      'kasten: lexical only, because the notes have not been embedded yet; run `kasten embed` on the vault first.',
    );
    expect(describeLexicalOnly({ code: 'failed', message: 'cannot reach the model server' })).toBe(
      'kasten: lexical only, because cannot reach the model server.',
    );
  });
});

describe('describeEmbedding', () => {
  it('prints what a run did and where the vectors come from', () => {
    const text = describeEmbedding(
      {
        notesChunked: 3,
        embedded: 1,
        reused: 40,
        truncatedNotes: [],
        cancelled: false,
        error: null,
        ms: 1234,
      },
      {
        state: 'idle',
        phase: null,
        done: 0,
        total: 0,
        error: null,
        settings: {
          enabled: true,
          provider: 'ollama',
          baseUrl: 'http://127.0.0.1:11434',
          model: 'nomic-embed-text',
          apiKeyEnv: null,
        },
        embedded: 41,
        pending: 2,
        vectorsFrom: 'nomic-embed-text at http://127.0.0.1:11434 (ollama)',
        dimensions: 768,
        notice: null,
        unavailable: null,
      },
    );
    expect(text).toBe(
      'Embedded 1 passage (40 kept, 3 notes read again) in 1.2 s.\n' +
        '41 passages have vectors from nomic-embed-text at http://127.0.0.1:11434 (ollama); 2 wait for one.',
    );
  });
});
