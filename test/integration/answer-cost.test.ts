import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { atMachine, dispatch } from '../../src/main/hosts/dispatch';
import type { ChatMessage, SessionListing } from '../../src/shared/chat-domain';
import { isSummaryRequest } from '../support/counting-model';
import { summaryText } from '../support/long-chat';
import { startScriptedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp | null = null;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await server.stop();
  workspace.remove();
});

/** OpenRouter's way of listing a price: US dollars per token, as strings. */
const openRouterPricing = { prompt: '0.0000025', completion: '0.00001', input_cache_read: '0.00000125' };

/** A tool loop of two calls: 1,000 tokens in and 20 out, then 2,000 in (1,500 of them cached) and 100 out. */
function scriptToolLoop() {
  server.script([
    {
      toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }],
      usage: { promptTokens: 1_000, completionTokens: 20, cachedTokens: 0 },
    },
    { text: 'Links matter [1].', usage: { promptTokens: 2_000, completionTokens: 100, cachedTokens: 1_500 } },
  ]);
}
/** The loop's cost at $2.50 in, $1.25 cached, $10 out per million tokens. */
const loopUsd = (1_000 * 2.5 + 20 * 10 + 500 * 2.5 + 1_500 * 1.25 + 100 * 10) / 1e6;

async function cli(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    bin,
    ...args,
    '--data-dir',
    workspace.dataDir,
    '--json',
  ]);
  return JSON.parse(stdout);
}

function ask(question: string, ...extra: string[]) {
  return cli(
    'ask',
    workspace.vault,
    question,
    '--base-url',
    `${server.url}/v1`,
    '--model',
    'scripted-model',
    ...extra,
  );
}

describe('what an answer costs', () => {
  it('sums every call of a tool loop at the price the server lists, cached tokens at the cached price', async () => {
    server.setModels([{ id: 'scripted-model', pricing: openRouterPricing }]);
    scriptToolLoop();
    const report = (await ask('What about links?')) as { sessionId: string; usage: Record<string, unknown> };
    expect(report.usage).toMatchObject({
      inputTokens: 3_000,
      cachedInputTokens: 1_500,
      outputTokens: 120,
      cost: {
        quote: { kind: 'priced', source: 'server', price: { input: 2.5, cachedInput: 1.25, output: 10 } },
        unreported: 0,
      },
    });
    expect((report.usage.cost as { usd: number }).usd).toBeCloseTo(loopUsd, 12);

    // The server's price doubles: the next answer costs the new price, the first keeps the one it was given.
    server.setModels([
      {
        id: 'scripted-model',
        pricing: { prompt: '0.000005', completion: '0.00002', input_cache_read: '0.0000025' },
      },
    ]);
    scriptToolLoop();
    await ask('And again?', '--session', report.sessionId);
    const [session] = (await cli('sessions', workspace.vault)) as SessionListing[];
    expect(session).toMatchObject({
      id: report.sessionId,
      usage: { inputTokens: 6_000, cachedInputTokens: 3_000, outputTokens: 240, unpriced: 0, hosted: 2 },
    });
    expect(session!.usage.usd).toBeCloseTo(loopUsd * 3, 12);
  }, 120_000);

  it('gives a local server’s answers no cost: none stored, none in the totals or the listing', async () => {
    scriptToolLoop();
    const local = (await ask('What about links?')) as { sessionId: string; usage: { cost: unknown } };
    expect(local.usage.cost).toMatchObject({ quote: { kind: 'local' }, usd: null });
    const [session] = (await cli('sessions', workspace.vault)) as SessionListing[];
    expect(session!.usage).toMatchObject({ inputTokens: 3_000, usd: null, hosted: 0, unpriced: 0 });

    const { stdout } = await promisify(execFile)(process.execPath, [
      bin,
      'sessions',
      workspace.vault,
      '--data-dir',
      workspace.dataDir,
    ]);
    expect(stdout).not.toMatch(/\$|price/);
  }, 120_000);

  it('adds the calls that summarized older messages to the answer that waited for them', async () => {
    server.setModels([{ id: 'scripted-model', pricing: openRouterPricing }]);
    // A small window: a few turns of long questions and answers do not fit, and are summarized.
    app = await startScriptedApp(workspace, server.url, 3_000);
    const filler = 'Folders hold notes, links connect them, and tags cut across both of them. '.repeat(12);
    server.script((request) =>
      isSummaryRequest(request)
        ? { text: summaryText, usage: { promptTokens: 900, completionTokens: 50, cachedTokens: 0 } }
        : {
            text: `Noted. ${filler}`,
            usage: { promptTokens: 1_000, completionTokens: 300, cachedTokens: 0 },
          },
    );
    let sessionId: string | undefined;
    let compacted: { answer: ChatMessage; summaries: number } | null = null;
    for (let turn = 1; turn <= 20 && !compacted; turn++) {
      const before = server.chatRequests.filter(isSummaryRequest).length;
      const answer = await (await app.chat.send({ text: `Question ${turn}: ${filler}`, sessionId })).done;
      expect(answer.status, answer.error ?? '').toBe('complete');
      sessionId = answer.sessionId;
      const summaries = server.chatRequests.filter(isSummaryRequest).length - before;
      if (summaries > 0) compacted = { answer, summaries };
    }
    expect(compacted).not.toBeNull();
    const { answer, summaries } = compacted!;
    expect(answer.usage).toMatchObject({
      inputTokens: 1_000 + 900 * summaries,
      outputTokens: 300 + 50 * summaries,
      cost: { quote: { kind: 'priced', source: 'server' }, unreported: 0 },
    });
    const usd = (1_000 * 2.5 + 300 * 10 + summaries * (900 * 2.5 + 50 * 10)) / 1e6;
    expect(answer.usage!.cost!.usd).toBeCloseTo(usd, 12);
    // The chat's totals count them too.
    const listing = app.chat.list().find((session) => session.id === sessionId);
    expect(listing?.usage?.inputTokens).toBeGreaterThanOrEqual(answer.usage!.inputTokens!);
  }, 120_000);

  it('prices with the price set in Settings, over the server’s, from the next answer on', async () => {
    server.setModels([{ id: 'scripted-model', pricing: openRouterPricing }]);
    app = await startScriptedApp(workspace, server.url);
    const table = await app.handlers['prices:set']({
      model: 'scripted-model',
      input: 1,
      cachedInput: 0.1,
      output: 2,
    });
    expect(table.rows[0]).toMatchObject({ model: 'scripted-model', edited: true, quote: { source: 'user' } });
    server.script([
      { text: 'Yes.', usage: { promptTokens: 10_000, completionTokens: 1_000, cachedTokens: 8_000 } },
    ]);
    const answer = await (await app.chat.send({ text: 'Links?' })).done;
    expect(answer.usage?.cost?.usd).toBeCloseTo((2_000 * 1 + 8_000 * 0.1 + 1_000 * 2) / 1e6, 12);
    // As stored, not only as announced.
    const stored = app.chat.session(answer.sessionId).messages.at(-1);
    expect(stored?.usage?.cost).toEqual(answer.usage?.cost);

    const reset = await app.handlers['prices:reset']({ model: 'scripted-model' });
    expect(reset.rows[0]).toMatchObject({
      edited: false,
      quote: { source: 'server', price: { input: 2.5 } },
    });
    // Through the contract, as every host calls it: a negative price is refused in words.
    const refused = await dispatch(
      app,
      'prices:set',
      { model: 'scripted-model', input: -1, cachedInput: null, output: 2 },
      atMachine,
    );
    expect(refused).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/cannot be negative/) },
    });
  });
});
