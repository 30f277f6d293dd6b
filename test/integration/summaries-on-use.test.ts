import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { atMachine, dispatch } from '../../src/main/hosts/dispatch';
import type { SummaryEstimate, SummaryProgress, SummaryReport } from '../../src/shared/model-domain';
import { createIndexedApp } from '../support/indexed-app';
import {
  startScriptedModelServer,
  type ChatRequest,
  type ScriptedModelServer,
} from '../support/scripted-model-server';
import { tempWorkspace, waitFor } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp | null = null;
/** Every summaries:progress event since the app was created, before it started. */
let progress: SummaryProgress[];

const isNoteSummary = (request: ChatRequest) =>
  JSON.stringify(request.messages).includes('Summarize the note in one or two sentences');

/** The note a summary request was about, from the title line of its user message. */
function titleOf(request: ChatRequest): string {
  return /Title: ([^\\]*)/.exec(JSON.stringify(request.messages))?.[1] ?? '';
}

/** The titles of the notes the model was asked to summarize, in the order asked. */
const summarizedTitles = () => server.chatRequests.filter(isNoteSummary).map(titleOf);

/** A model on this machine: summaries as notes are used are on by default for it. */
async function startApp(): Promise<KastenApp> {
  app = createIndexedApp(workspace.dataDir, workspace.vault, {
    host: 'web',
    watch: true,
    backgroundSummaries: true,
    model: {
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-model',
      apiKeyEnv: null,
      contextWindow: null,
      summaryModel: null,
    },
  });
  progress = [];
  app.events.on('summaries:progress', (update) => progress.push(update));
  await app.start();
  await app.index.whenIdle();
  return app;
}

/** Calls a channel the way a host does (schema check included) and unwraps the envelope. */
async function call<T>(channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<T> {
  const envelope = await dispatch(app!, channel, payload, atMachine);
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value as T;
}

/** Resolves once the note at `path` has a model summary of its content (read without using the note). */
const summarized = (path: string) =>
  waitFor(() => app!.summaries.work([path]).cached === 1, 10_000, `a summary of ${path}`);

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer({
    replies: (request) => ({ text: isNoteSummary(request) ? `${titleOf(request)} in brief.` : 'OK' }),
  });
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await server.stop();
  workspace.remove();
});

describe('summaries as notes are used', () => {
  it('opening a vault with a model configured calls it for no summary; a note shown in the panel is summarized', async () => {
    await startApp();
    expect(app!.index.status().progress.state).toBe('idle');
    expect(server.chatRequests).toHaveLength(0);

    // Shown in the note panel. Runs go one after another: one queued when the index went idle would
    // have been asked, and reported, before this one.
    await call('notes:read', { path: 'Atomic notes.md' });
    await summarized('Atomic notes.md');
    expect(summarizedTitles()).toEqual(['Atomic notes']);
    expect(progress[0]).toEqual({ state: 'running', done: 0, total: 1, failed: 0, firstError: null });
    expect(app!.summaries.summaryFor('Atomic notes.md')).toEqual({
      text: 'Atomic notes in brief.',
      source: 'llm',
    });

    // Shown again, it costs nothing.
    await call('notes:read', { path: 'Atomic notes.md' });
    await call('notes:read', { path: 'Gardening.md' });
    await summarized('Gardening.md');
    expect(summarizedTitles()).toEqual(['Atomic notes', 'Gardening']);
  });

  it('a note referenced in a chat is summarized, once', async () => {
    await startApp();
    const turn = await app!.chat.send({ text: 'What does [[Gardening]] say?' });
    await turn.done;
    await summarized('Gardening.md');
    expect(summarizedTitles()).toEqual(['Gardening']);

    const again = await app!.chat.send({ sessionId: turn.session.id, text: 'And [[Gardening]] once more?' });
    await again.done;
    expect(again.userMessage?.references[0]).toMatchObject({ summary: 'Gardening in brief.' });
    // A later use, to be sure nothing else was on its way.
    await call('notes:read', { path: 'Zettelkasten method.md' });
    await summarized('Zettelkasten method.md');
    expect(summarizedTitles()).toEqual(['Gardening', 'Zettelkasten method']);
  });

  it('turned off, a note shown is not summarized', async () => {
    await startApp();
    await call('summaries:configure', { background: false });
    await call('notes:read', { path: 'Gardening.md' });
    await call('summaries:configure', { background: true });
    await call('notes:read', { path: 'Atomic notes.md' });
    await summarized('Atomic notes.md');
    expect(summarizedTitles()).toEqual(['Atomic notes']);
  });
});

describe('summarizing the whole vault', () => {
  it('says how many notes and tokens first, starts past 200 notes only when confirmed, and can be cancelled', async () => {
    mkdirSync(join(workspace.vault, 'log'));
    for (let day = 1; day <= 205; day++) {
      writeFileSync(join(workspace.vault, 'log', `Day ${day}.md`), `# Day ${day}\n\nRained on day ${day}.\n`);
    }
    await startApp();
    await call('notes:read', { path: 'Gardening.md' });
    await summarized('Gardening.md');

    const estimate = await call<SummaryEstimate>('summaries:estimate');
    expect(estimate).toMatchObject({
      model: 'scripted-model',
      hosted: false,
      notes: 207,
      cached: 1,
      cost: null,
      needsConfirmation: true,
    });
    expect(estimate.inputTokens).toBeGreaterThan(207 * 30);
    expect(estimate.outputTokens).toBe(207 * estimate.replyTokens);
    await expect(call('summaries:run')).rejects.toThrow(
      /^invalid-input: 207 notes have no summary from scripted-model yet: that is 207 model calls/,
    );
    expect(summarizedTitles()).toEqual(['Gardening']);

    server.script(() => ({ fault: 'hang' }));
    const running = call<SummaryReport>('summaries:run', { confirmed: true });
    await waitFor(() => server.chatRequests.length === 3, 10_000, 'two calls in flight');
    await call('summaries:cancel');
    expect(await running).toMatchObject({ cancelled: true, summarized: 0, failed: 0, cached: 1 });
    expect(progress.at(-1)).toMatchObject({ state: 'cancelled', done: 0, total: 207 });
  });
});
