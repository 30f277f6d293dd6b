import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ModelSettings } from '../../src/shared/chat-domain';
import { isSummaryRequest } from '../support/counting-model';
import { startIndexedApp } from '../support/indexed-app';
import { kasten } from '../support/run-cli';
import {
  startScriptedModelServer,
  type ChatRequest,
  type ScriptedModelServer,
} from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp | null = null;

const summaryText = [
  '## Goal',
  'Understand the notes on linking.',
  '## Decisions',
  'None.',
  '## Facts',
  'Links matter more than folders.',
  '## Open questions',
  'None.',
  '## Next steps',
  'Keep asking.',
].join('\n');

/** The note a note-summary request was about, from the title line of its user message. */
function titleOf(request: ChatRequest): string {
  const user = request.messages.find((message) => message.role === 'user');
  const text = typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
  return /Title: (.*)/.exec(text)?.[1] ?? '';
}

/** Chat answers name the model that wrote them; compactions and note summaries are told apart. */
function reply(request: ChatRequest) {
  if (isSummaryRequest(request)) return { text: summaryText };
  if ((request.tools ?? []).length === 0)
    return { text: `${titleOf(request)} in brief, per ${request.model}.` };
  const words = 'links connect notes better than folders do, and each card keeps one thought'.repeat(6);
  return { text: `Answer from ${request.model}: ${words}` };
}

function startApp(model: Partial<ModelSettings>): Promise<KastenApp> {
  return startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model', ...model },
    compactionTimeoutMs: 5_000,
  }).then((started) => (app = started));
}

const modelsOf = (requests: readonly ChatRequest[]) => [...new Set(requests.map((request) => request.model))];

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer({
    models: [{ id: 'scripted-model' }, { id: 'small-model' }],
    replies: reply,
  });
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await server.stop();
  workspace.remove();
});

describe('the summary model', () => {
  it('writes the note summaries while the chat model answers, and its summaries are cached under its name', async () => {
    await startApp({ summaryModel: 'small-model' });
    const report = await app!.summaries.summarize();
    expect(report).toMatchObject({ model: 'small-model', notes: 3, summarized: 3, failed: 0 });
    expect(server.chatRequests.map((request) => request.model)).toEqual([
      'small-model',
      'small-model',
      'small-model',
    ]);
    expect(app!.summaries.summaryFor('Gardening.md')).toEqual({
      text: 'Gardening in brief, per small-model.',
      source: 'llm',
    });

    const answer = await (await app!.chat.send({ text: 'What are links for?' })).done;
    expect(answer.status).toBe('complete');
    expect(server.chatRequests.slice(3).map((request) => request.model)).toEqual(['scripted-model']);

    // Back to the chat model: the small model's summaries are not passed off as the chat model's.
    await app!.dispose();
    await startApp({ summaryModel: null });
    expect(app!.summaries.summaryFor('Gardening.md')?.source).toBe('extract');
    expect(await app!.summaries.summarize()).toMatchObject({
      model: 'scripted-model',
      summarized: 3,
      cached: 0,
    });
    expect(modelsOf(server.chatRequests.slice(4))).toEqual(['scripted-model']);
  });

  it('keeps the summaries of one model name on two servers apart', async () => {
    await startApp({});
    expect(await app!.summaries.summarize()).toMatchObject({ summarized: 3, cached: 0 });
    await app!.dispose();
    // Another server whose model has the same name: it may be another model, so nothing is reused.
    const other = await startScriptedModelServer({ models: [{ id: 'scripted-model' }], replies: reply });
    try {
      await startApp({ baseUrl: `${other.url}/v1` });
      expect(app!.summaries.summaryFor('Gardening.md')?.source).toBe('extract');
      expect(await app!.summaries.summarize()).toMatchObject({ summarized: 3, cached: 0 });
      expect(other.chatRequests).toHaveLength(3);
      await app!.dispose();
      // The first server's summaries are still there for it.
      await startApp({});
      expect(app!.summaries.summaryFor('Gardening.md')?.source).toBe('llm');
    } finally {
      await app?.dispose();
      app = null;
      await other.stop();
    }
  });

  it('writes the summary of a compacted chat', async () => {
    await startApp({ summaryModel: 'small-model' });
    let sessionId: string | undefined;
    for (let turn = 1; turn <= 6; turn++) {
      const answer = await (
        await app!.chat.send({ text: `Question ${turn}: more on links?`, sessionId })
      ).done;
      expect(answer.status).toBe('complete');
      sessionId = answer.sessionId;
    }
    expect(modelsOf(server.chatRequests)).toEqual(['scripted-model']);

    const { compaction } = await app!.chat.compact(sessionId!);
    expect(compaction?.text).toContain('## Next steps');
    const summaries = server.chatRequests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(0);
    expect(modelsOf(summaries)).toEqual(['small-model']);
    expect(modelsOf(server.chatRequests.filter((request) => !isSummaryRequest(request)))).toEqual([
      'scripted-model',
    ]);
  });

  it('writes the summaries a long chat needs while it is answered', async () => {
    // A small window: the chat outgrows it within a few turns and compacts by itself.
    await startApp({ summaryModel: 'small-model', contextWindow: 2048 });
    let sessionId: string | undefined;
    for (let turn = 1; turn <= 12; turn++) {
      const answer = await (
        await app!.chat.send({ text: `Question ${turn}: more on links and folders?`, sessionId })
      ).done;
      expect(answer.status, answer.error ?? '').toBe('complete');
      sessionId = answer.sessionId;
    }
    expect(app!.chat.session(sessionId!).compactions.length).toBeGreaterThan(0);
    expect(modelsOf(server.chatRequests.filter(isSummaryRequest))).toEqual(['small-model']);
  });

  it('is chosen for a run with kasten summarize --summary-model', async () => {
    const flags = ['--base-url', `${server.url}/v1`, '--model', 'scripted-model'];
    const run = (...extra: string[]) =>
      kasten('summarize', workspace.vault, ...flags, '--data-dir', workspace.dataDir, '--json', ...extra);

    const first = await run('--summary-model', 'small-model');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ model: 'small-model', summarized: 3, cached: 0 });
    expect(modelsOf(server.chatRequests)).toEqual(['small-model']);
    expect(server.chatRequests).toHaveLength(3);

    // Without the flag the chat model writes them: its own summaries, not the small model's.
    const second = await run();
    expect(JSON.parse(second.out)).toMatchObject({ model: 'scripted-model', summarized: 3, cached: 0 });
    expect(modelsOf(server.chatRequests.slice(3))).toEqual(['scripted-model']);

    const third = await run('--summary-model', 'small-model');
    expect(JSON.parse(third.out)).toMatchObject({ model: 'small-model', summarized: 0, cached: 3 });
    expect(server.chatRequests).toHaveLength(6);
  });
});
