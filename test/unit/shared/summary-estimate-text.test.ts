import { describe, expect, it } from 'vitest';
import type { SummaryEstimate } from '../../../src/shared/model-domain';
import { describeSummaryEstimate } from '../../../src/shared/summary-estimate-text';

const estimate = (overrides: Partial<SummaryEstimate>): SummaryEstimate => ({
  model: 'gpt-4o-mini',
  server: 'https://api.openai.com/v1',
  hosted: true,
  notes: 6281,
  cached: 8,
  inputTokens: 4_120_300,
  outputTokens: 628_100,
  replyTokens: 100,
  cost: null,
  needsConfirmation: true,
  ...overrides,
});

describe('the estimate, as said before summarizing the whole vault', () => {
  it('names the notes, the calls, the tokens and the cost at the list price of a hosted model', () => {
    const cost = {
      usd: 0.99,
      inputPerMillion: 0.15,
      outputPerMillion: 0.6,
      source: 'https://…',
      priceSource: 'list' as const,
    };
    expect(describeSummaryEstimate(estimate({ cost }))).toBe(
      '6,281 notes have no summary from gpt-4o-mini yet (8 have one). That is 6,281 model calls: about ' +
        "4,120,300 tokens sent and up to 628,100 written; about $0.99 at gpt-4o-mini's list price " +
        '($0.15 in, $0.6 out per million tokens).',
    );
  });

  it('gives tokens only when no price is known, and says a local server costs time, not money', () => {
    expect(describeSummaryEstimate(estimate({ model: 'my-model' }))).toMatch(
      /; no price is known here for my-model on https:\/\/api\.openai\.com\/v1: tokens only, check the provider's prices\.$/,
    );
    expect(
      describeSummaryEstimate(
        estimate({ hosted: false, server: 'http://127.0.0.1:11434', notes: 1, cached: 0 }),
      ),
    ).toMatch(
      /^1 note has no summary from gpt-4o-mini yet\. That is 1 model call: .*; on http:\/\/127\.0\.0\.1:11434, a server on this machine: no charge, but time on it\.$/,
    );
    expect(describeSummaryEstimate(estimate({ notes: 0, cached: 3 }))).toBe(
      'Every note already has a summary from gpt-4o-mini: nothing to do.',
    );
    expect(describeSummaryEstimate(estimate({ notes: 0, cached: 0 }))).toBe('No note has text to summarize.');
  });
});
