import { describe, expect, it } from 'vitest';
import type { NoteHash } from '../../../src/main/index/note-catalog';
import { isLocalServer, listPrice } from '../../../src/main/llm/model-prices';
import { estimateSummaries, summaryReplyTokens } from '../../../src/main/summaries/summary-estimate';

const note = (title: string): NoteHash => ({ path: `${title}.md`, title, hash: title, lead: '', words: 10 });
/** One token per character: the estimate's arithmetic in plain sight. */
const characters = (text: string) => text.length;

function estimate(baseUrl: string, model: string, toDo = [note('One'), note('Two')]) {
  return estimateSummaries({
    work: { toDo, cached: 3 },
    readNote: async (path) => {
      if (path === 'Gone.md') throw new Error('ENOENT');
      return { content: 'x'.repeat(1000) };
    },
    tokens: characters,
    settings: { baseUrl },
    model,
  });
}

describe('the estimate of a summary run', () => {
  it('counts each request as sent, allows each summary its reply, and prices a known hosted model', async () => {
    const result = await estimate('https://api.openai.com/v1', 'gpt-4o-mini-2024-07-18');
    expect(result).toMatchObject({ notes: 2, cached: 3, hosted: true, needsConfirmation: false });
    // The prompt, the title line and the note's 1,000 characters, for each of the two notes.
    expect(result.inputTokens).toBeGreaterThan(2 * 1000);
    expect(result.inputTokens).toBeLessThan(2 * 1500);
    expect(result.outputTokens).toBe(2 * summaryReplyTokens);
    expect(result.cost).toMatchObject({ inputPerMillion: 0.15, outputPerMillion: 0.6 });
    expect(result.cost!.usd).toBeCloseTo((result.inputTokens * 0.15 + result.outputTokens * 0.6) / 1e6, 12);
  });

  it('gives tokens but no price for a model or a server whose price is not known, and none for a local one', async () => {
    expect((await estimate('https://api.openai.com/v1', 'gpt-9-ultra')).cost).toBeNull();
    // The same model sold by another server is priced there, not here.
    const elsewhere = await estimate('https://openrouter.ai/api/v1', 'gpt-4o-mini');
    expect(elsewhere).toMatchObject({ hosted: true, cost: null });
    expect(elsewhere.inputTokens).toBeGreaterThan(0);
    expect(await estimate('http://127.0.0.1:11434', 'llama3.1:8b')).toMatchObject({
      hosted: false,
      cost: null,
    });
  });

  it('counts the lead of a note that cannot be read, and asks for a go-ahead past 200 notes', async () => {
    const many = Array.from({ length: 201 }, (_, index) => note(`Note ${index}`));
    expect(await estimate('http://localhost:1234/v1', 'local', many)).toMatchObject({
      notes: 201,
      needsConfirmation: true,
    });
    const gone = await estimate('http://localhost:1234/v1', 'local', [note('Gone')]);
    expect(gone.inputTokens).toBeLessThan(1000);
  });
});

describe('list prices', () => {
  it('match a listed model, its dated snapshots and -latest, on the provider’s own API only', () => {
    const anthropic = { baseUrl: 'https://api.anthropic.com' };
    expect(listPrice(anthropic, 'claude-3-5-haiku-20241022')).toMatchObject({ input: 0.8, output: 4 });
    expect(listPrice(anthropic, 'claude-3-5-haiku-latest')).toMatchObject({ input: 0.8, output: 4 });
    expect(listPrice(anthropic, 'claude-opus-4-20250514')).toMatchObject({ input: 15, output: 75 });
    expect(listPrice(anthropic, 'claude-opus-4-5-20251101')).toMatchObject({ input: 5, output: 25 });
    expect(listPrice(anthropic, 'claude-opus-4-extra')).toBeNull();
    expect(listPrice({ baseUrl: 'https://api.openai.com/v1' }, 'gpt-4o')).toMatchObject({ input: 2.5 });
    expect(listPrice({ baseUrl: 'https://example.com/v1' }, 'gpt-4o')).toBeNull();
    expect(listPrice({ baseUrl: 'not a url' }, 'gpt-4o')).toBeNull();
    expect(isLocalServer('http://127.0.0.1:11434')).toBe(true);
    expect(isLocalServer('https://api.openai.com/v1')).toBe(false);
  });
});
