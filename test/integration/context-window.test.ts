import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { countingServer, type CountingLog } from '../support/counting-model';
import { startIndexedApp } from '../support/indexed-app';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

/** The window the server runs and names in its refusals; it says nothing about it otherwise. */
const served = 4096;
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

const start = () =>
  startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer({ models: [{ id: 'scripted-model' }] });
  app = await start();
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

async function ask(text: string, sessionId?: string): Promise<ChatMessage> {
  return (await app.chat.send({ text, sessionId })).done;
}

/** Asks a question the fallback's window holds and the server's does not: the server refuses it. */
async function askTooMuch(): Promise<ChatMessage> {
  const log: CountingLog = { events: [] };
  server.script(countingServer(served, () => ({ text: 'Noted.' }), log));
  const base = (await app.handlers['context:status']({})).estimated;
  const words = 'every word of a very long pasted text '.repeat(Math.ceil((served + 600 - base) / 8));
  const answer = await ask(`Please consider this: ${words}`);
  expect(log.events[0]).toMatchObject({ kind: 'rejected' });
  return answer;
}

describe('one window, everywhere', () => {
  it('a window the server named in a refusal is what the status bar, the meter, Settings and the CLI show, after a restart too', async () => {
    const statusBar = () => app.handlers['models:window'](undefined);
    expect(await statusBar()).toEqual({ tokens: 8192, source: 'fallback' });
    const answer = await askTooMuch();

    const named = { tokens: served, source: 'server-error', namedAt: expect.any(String) };
    // The status bar and Settings' model info both show `models:window`.
    expect(await statusBar()).toEqual(named);
    const meter = await app.handlers['context:status']({ sessionId: answer.sessionId });
    expect(meter).toMatchObject({ window: served, windowSource: 'server-error' });
    expect(meter.windowNamedAt).toBe((await statusBar()).namedAt);

    await app.dispose();
    const cli = await kasten(
      'context',
      workspace.vault,
      '--session',
      answer.sessionId,
      '--json',
      '--provider',
      'openai-compatible',
      '--base-url',
      `${server.url}/v1`,
      '--model',
      'scripted-model',
      '--data-dir',
      workspace.dataDir,
    );
    expect(cli.code, cli.err).toBe(0);
    expect(JSON.parse(cli.out)).toMatchObject({ window: served, windowSource: 'server-error' });

    // The app started again on the same data: still the server's figure, still said to be its.
    app = await start();
    expect(await statusBar()).toEqual(named);
    expect(await app.handlers['context:status']({ sessionId: answer.sessionId })).toMatchObject({
      window: served,
      windowSource: 'server-error',
    });
  });

  it('a kept window is dropped once the server takes a larger prompt (it was restarted with more)', async () => {
    await askTooMuch();
    expect((await app.handlers['models:window'](undefined)).source).toBe('server-error');

    // The server now holds more and says it took a prompt larger than the kept figure.
    server.script([{ text: 'Fine.', usage: { promptTokens: served + 500, completionTokens: 5 } }]);
    const fits = `Consider: ${'every word of a very long pasted text '.repeat(200)}`;
    expect((await ask(fits)).status).toBe('complete');
    await expect
      .poll(() => app.handlers['models:window'](undefined))
      .toEqual({
        tokens: 8192,
        source: 'fallback',
      });
  });

  it('a kept window gives way to the server’s metadata once it reports a figure', async () => {
    await askTooMuch();
    expect((await app.handlers['models:window'](undefined)).source).toBe('server-error');

    // Restarted as llama.cpp with 16k per slot: `/props` says so.
    await app.dispose();
    await server.stop();
    server = await startScriptedModelServer({
      models: [{ id: 'scripted-model' }],
      llamaCppContext: 16_384,
      port: Number(new URL(server.url).port),
    });
    app = await start();
    expect(await app.handlers['models:window'](undefined)).toEqual({
      tokens: 16_384,
      source: 'server-loaded',
    });
  });
});

describe('counts that agree', () => {
  it('a pinned note counts the same in the Context tab, the meter and Context used', async () => {
    // No usage reported: the calibration stays as it is, so before and after sending count alike.
    server.script([
      { text: 'Hello.', usage: null },
      { text: 'Both noted.', usage: null },
    ]);
    const first = await ask('Hello');
    for (const key of ['Gardening.md', 'Atomic notes.md']) {
      await app.handlers['items:set']({ sessionId: first.sessionId, kind: 'pinned', key, on: true });
    }
    const tab = async () =>
      (await app.handlers['items:session']({ sessionId: first.sessionId })).pinned.map((note) => [
        note.path,
        note.tokens,
      ]);
    const meter = (await app.handlers['context:status']({ sessionId: first.sessionId })).pinned.map(
      (entry) => [entry.path, entry.tokens],
    );
    expect(meter).toHaveLength(2);
    expect(meter.every(([, tokens]) => Number(tokens) > 0)).toBe(true);
    expect(await tab()).toEqual(meter);

    const answer = await ask('What do these notes say?', first.sessionId);
    const used = answer.requests[0]!.items.flatMap((item) =>
      item.kind === 'pinned' ? [[item.path, item.tokens]] : [],
    );
    expect(used).toEqual(meter);
    expect(await tab()).toEqual(meter);
  });

  it('the calibration says how many answers it learned from, not how many requests', async () => {
    const replies = [
      { toolCalls: [{ name: 'search_notes', arguments: { query: 'garden' } }] },
      { text: 'Found it.' },
    ];
    const script = (_request: unknown, index: number) => replies[index] ?? { text: 'OK' };
    server.script(countingServer(100_000, script, { events: [] }));
    const answer = await ask('What about the garden?');
    expect(answer.requests).toHaveLength(2);
    const { calibration } = await app.handlers['context:status']({ sessionId: answer.sessionId });
    expect(calibration).toMatchObject({ samples: 2, answers: 1 });
  });
});
