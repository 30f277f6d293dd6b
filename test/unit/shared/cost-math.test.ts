import { describe, expect, it } from 'vitest';
import {
  addCallCost,
  addOtherModelCall,
  callCost,
  perMillionFromPerToken,
  usageTotal,
} from '../../../src/shared/cost/cost-math';
import { answerCostText, totalCostText, usdText } from '../../../src/shared/cost/cost-text';
import type { PriceQuote, TokenPrice } from '../../../src/shared/cost/cost-domain';
import { isLocalServer, quotePrice } from '../../../src/main/llm/model-prices';
import { listedPrices } from '../../../src/main/llm/server-prices';

const gpt4o: TokenPrice = { input: 2.5, cachedInput: 1.25, output: 10 };
const priced = (price: TokenPrice): PriceQuote => ({
  kind: 'priced',
  price,
  source: 'user',
  reference: null,
});

describe('the price of a call', () => {
  it('prices the tokens read from the cache at the cached price and the rest at the input price', () => {
    // 2,000 uncached at $2.50, 8,000 cached at $1.25, 500 out at $10 per million.
    const usage = { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 500 };
    expect(callCost(usage, gpt4o)).toBeCloseTo((2_000 * 2.5 + 8_000 * 1.25 + 500 * 10) / 1e6, 12);
    // Without a cached price, cache hits cost what input costs.
    expect(callCost(usage, { ...gpt4o, cachedInput: null })).toBeCloseTo((10_000 * 2.5 + 500 * 10) / 1e6, 12);
  });

  it('prices Anthropic cache writes at 1.25 × input, and never counts more cached tokens than the prompt', () => {
    const quote = quotePrice(
      { baseUrl: 'https://api.anthropic.com', provider: 'anthropic' },
      'claude-sonnet-4-5',
    );
    expect(quote).toMatchObject({
      kind: 'priced',
      source: 'list',
      price: { input: 3, cachedInput: 0.3, cacheWrite: 3.75 },
    });
    const price = (quote as Extract<PriceQuote, { kind: 'priced' }>).price;
    const usage = {
      inputTokens: 5_000,
      cachedInputTokens: 3_000,
      cacheWriteTokens: 1_500,
      outputTokens: 100,
    };
    expect(callCost(usage, price)).toBeCloseTo((500 * 3 + 3_000 * 0.3 + 1_500 * 3.75 + 100 * 15) / 1e6, 12);
    expect(callCost({ inputTokens: 100, cachedInputTokens: 900, outputTokens: 0 }, gpt4o)).toBeCloseTo(
      (100 * 1.25) / 1e6,
      12,
    );
  });

  it('adds every call of an answer, and counts calls without usage instead of pricing them at $0', () => {
    let cost = addCallCost(undefined, priced(gpt4o), { inputTokens: 1_000, outputTokens: 100 });
    cost = addCallCost(cost, priced(gpt4o), {
      inputTokens: 2_000,
      cachedInputTokens: 1_000,
      outputTokens: 50,
    });
    cost = addCallCost(cost, priced(gpt4o), { inputTokens: null, outputTokens: null });
    expect(cost.usd).toBeCloseTo((1_000 * 2.5 + 100 * 10 + 1_000 * 2.5 + 1_000 * 1.25 + 50 * 10) / 1e6, 12);
    expect(cost.unreported).toBe(1);
    expect(answerCostText(cost)).toMatch(/^\$0\.0\d{3} \(1 call without usage not counted\)$/);
  });

  it('adds another model’s call at its own price, keeping the answer’s quote; one at no known price as unreported', () => {
    const usage = { inputTokens: 1_000, outputTokens: 100 };
    const answer = priced(gpt4o);
    const cheap = priced({ input: 0.5, cachedInput: null, output: 1 });
    const first = addCallCost(undefined, answer, usage);
    const both = addOtherModelCall(first, answer, cheap, usage);
    expect(both.quote).toBe(answer);
    expect(both.usd).toBeCloseTo((1_000 * 2.5 + 100 * 10 + 1_000 * 0.5 + 100 * 1) / 1e6, 12);
    // Before any call of the answer's own model, the answer still takes its own quote.
    expect(addOtherModelCall(undefined, answer, cheap, usage).quote).toBe(answer);
    expect(addOtherModelCall(both, answer, { kind: 'unknown' }, usage)).toMatchObject({
      usd: both.usd,
      unreported: 1,
    });
    expect(addOtherModelCall(both, answer, { kind: 'local' }, usage)).toEqual(both);
  });

  it('says "price unknown" for a hosted model without a price, and nothing for a local server', () => {
    const unknown = addCallCost(undefined, { kind: 'unknown' }, { inputTokens: 1_000, outputTokens: 10 });
    expect(unknown.usd).toBeNull();
    expect(answerCostText(unknown)).toBe('price unknown');
    expect(
      answerCostText(addCallCost(undefined, { kind: 'local' }, { inputTokens: 1, outputTokens: 1 })),
    ).toBeNull();
  });
});

describe('OpenRouter’s listed prices', () => {
  it('reads dollars per token given as strings into dollars per million, skipping what is not a price', () => {
    expect(perMillionFromPerToken('0.0000025')).toBe(2.5);
    expect(perMillionFromPerToken('0.00000125')).toBe(1.25);
    expect(perMillionFromPerToken('0')).toBe(0);
    for (const bad of ['-1', 'free', '', '1e400', '12', undefined, null, {}]) {
      expect(perMillionFromPerToken(bad)).toBeNull();
    }
    const prices = listedPrices({
      data: [
        {
          id: 'openai/gpt-4o',
          pricing: { prompt: '0.0000025', completion: '0.00001', input_cache_read: '0.00000125' },
        },
        {
          id: 'anthropic/claude-sonnet-4.5',
          pricing: {
            prompt: '0.000003',
            completion: '0.000015',
            input_cache_read: '0.0000003',
            input_cache_write: '0.00000375',
          },
        },
        { id: 'openrouter/auto', pricing: { prompt: '-1', completion: '-1' } },
        { id: 'no-pricing' },
        'not an entry',
      ],
    });
    expect([...prices.keys()]).toEqual(['openai/gpt-4o', 'anthropic/claude-sonnet-4.5']);
    expect(prices.get('openai/gpt-4o')).toEqual({
      input: 2.5,
      cachedInput: 1.25,
      output: 10,
      cacheWrite: null,
    });
    expect(prices.get('anthropic/claude-sonnet-4.5')).toMatchObject({ cachedInput: 0.3, cacheWrite: 3.75 });
    expect(listedPrices({ data: 'nope' }).size).toBe(0);
  });
});

describe('which price applies', () => {
  const openai = { baseUrl: 'https://api.openai.com/v1', provider: 'openai-compatible' as const };
  it('takes the user’s price, then the server’s, then nothing for a local server, then the list price', () => {
    const user = { input: 1, cachedInput: null, output: 2 };
    const reported = { input: 3, cachedInput: 0.3, output: 4 };
    expect(quotePrice(openai, 'gpt-4o', { user, reported })).toMatchObject({ source: 'user', price: user });
    expect(quotePrice(openai, 'gpt-4o', { user: null, reported })).toMatchObject({ source: 'server' });
    expect(quotePrice(openai, 'gpt-4o')).toMatchObject({
      source: 'list',
      price: { input: 2.5, cachedInput: 1.25 },
    });
    expect(quotePrice(openai, 'gpt-9')).toEqual({ kind: 'unknown' });
    const local = { baseUrl: 'http://192.168.1.20:1234/v1' };
    expect(quotePrice(local, 'gpt-4o')).toEqual({ kind: 'local' });
    expect(quotePrice(local, 'gpt-4o', { user, reported: null })).toMatchObject({
      kind: 'priced',
      source: 'user',
    });
  });

  it('counts loopback, private and link-local addresses and .local names as local, nothing else', () => {
    for (const url of [
      'http://127.0.0.1:11434',
      'http://localhost:8080/v1',
      'http://10.0.0.5/v1',
      'http://172.20.1.1/v1',
      'http://192.168.0.9:1234/v1',
      'http://169.254.1.1',
      'http://[::1]:8080',
      'http://[fd00::2]/v1',
      'http://gpu-box.local:8000/v1',
      'http://[::ffff:127.0.0.1]/v1',
    ]) {
      expect(isLocalServer(url), url).toBe(true);
    }
    for (const url of [
      'https://api.openai.com/v1',
      'https://openrouter.ai/api/v1',
      'http://8.8.8.8/v1',
      'http://172.32.0.1/v1',
      'not a url',
      'https://localhost.example.com/v1',
    ]) {
      expect(isLocalServer(url), url).toBe(false);
    }
  });
});

describe('a chat’s total', () => {
  it('adds the stored costs, says how many answers had no price, and shows nothing for local answers', () => {
    const answer = (usd: number | null, quote: PriceQuote) => ({
      inputTokens: 100,
      cachedInputTokens: 40,
      outputTokens: 10,
      cost: { quote, usd, unreported: 0 },
    });
    const total = usageTotal([
      answer(0.01, priced(gpt4o)),
      null,
      answer(0.0025, priced(gpt4o)),
      answer(null, { kind: 'unknown' }),
    ]);
    expect(total).toMatchObject({
      inputTokens: 300,
      cachedInputTokens: 120,
      outputTokens: 30,
      unpriced: 1,
      hosted: 3,
    });
    expect(total.usd).toBeCloseTo(0.0125, 12);
    expect(totalCostText(total)).toBe('$0.0125 + 1 answer at unknown price');
    expect(totalCostText(usageTotal([answer(null, { kind: 'unknown' })]))).toBe('price unknown');
    expect(
      totalCostText(usageTotal([answer(null, { kind: 'local' }), { inputTokens: 5, outputTokens: 5 }])),
    ).toBeNull();
    expect([usdText(0), usdText(0.00001), usdText(0.01234), usdText(3.456)]).toEqual([
      '$0.00',
      '< $0.0001',
      '$0.0123',
      '$3.46',
    ]);
  });
});
