import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { RequestPlanner } from '../../src/main/request/request-planner';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import { prose } from '../support/long-chat';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { longAnswer } from '../support/streamed-answer';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

// One clock for every start: the request names the day and the time, and a fresh start must plan alike.
const now = () => new Date('2026-11-28T10:15:00Z');
const start = () =>
  startIndexedApp(workspace.dataDir, workspace.vault, {
    model: {
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-model',
      contextWindow: 4096,
    },
    now,
  });

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer({ models: [{ id: 'scripted-model' }] });
  app = await start();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await app.dispose();
  await server.stop();
  workspace.remove();
});

/** A chat of `turns` questions and answers, longer together than the window. */
async function longChat(turns: number): Promise<string> {
  server.script(Array.from({ length: turns }, (_, turn) => ({ text: prose(`Answer${turn}`, 180) })));
  let sessionId: string | undefined;
  for (let turn = 0; turn < turns; turn++) {
    const { done } = await app.chat.send({ text: prose(`Question${turn}`, 60), sessionId });
    sessionId = (await done).sessionId;
  }
  return sessionId!;
}

const status = (sessionId: string, draft = '') => app.handlers['context:status']({ sessionId, draft });

/** What the meter reads for `draft` once the app starts again, with nothing planned before. */
async function afterRestart(sessionId: string, draft: string) {
  await app.dispose();
  app = await start();
  return status(sessionId, draft);
}

describe('the context meter follows what changed', () => {
  it('typing a question in a long chat plans the request a few times, not at every keystroke, and reads as a fresh start does', async () => {
    const sessionId = await longChat(10);
    const previews = vi.spyOn(RequestPlanner.prototype, 'previewPlan');
    const question = 'What do my notes on [[Gardening]] say about soil, and about compost?';
    let draft = '';
    for (const key of question) {
      draft += key;
      await status(sessionId, draft);
    }
    // Planned when typing began and once the link was complete (each with a look further on), and
    // where the words crossed a change of the plan; every other keystroke was counted.
    expect(previews.mock.calls.length).toBeLessThanOrEqual(8);
    const typed = await status(sessionId, draft);
    expect(typed.parts.find((part) => part.part === 'reference')?.tokens).toBeGreaterThan(0);
    previews.mockRestore();
    expect(await afterRestart(sessionId, draft)).toEqual(typed);
  });

  it('a pinned note planned again equals a fresh start, and so does the next message', async () => {
    const sessionId = await longChat(6);
    await status(sessionId, 'And what about');
    await status(sessionId, 'And what about soil?');
    await app.handlers['items:set']({ sessionId, kind: 'pinned', key: 'Gardening.md', on: true });
    const pinned = await status(sessionId, 'And what about soil?');
    expect(pinned.pinned.map((entry) => entry.path)).toEqual(['Gardening.md']);
    expect(await afterRestart(sessionId, 'And what about soil?')).toEqual(pinned);

    server.script([{ text: prose('Soil', 120) }]);
    await (
      await app.chat.send({ text: 'And what about soil?', sessionId })
    ).done;
    const answered = await status(sessionId, 'Thanks!');
    expect(await afterRestart(sessionId, 'Thanks!')).toEqual(answered);
  });

  it('while an answer streams its text, the meter plans again only when its requests change', async () => {
    const sessionId = await longChat(4);
    const previews = vi.spyOn(RequestPlanner.prototype, 'previewPlan');
    server.script([{ text: longAnswer(2_000), chunkSize: 24, delayMs: 4 }]);
    const readings: Promise<unknown>[] = [];
    // As often as a client could ask: at every announcement of the answer.
    const unsubscribe = app.events.subscribe((channel, payload) => {
      const ofAnswer = channel === 'chat:delta' || channel === 'chat:message';
      if (ofAnswer && (payload as Pick<ChatMessage, 'sessionId'>).sessionId === sessionId)
        readings.push(status(sessionId));
    });
    const answer = await (await app.chat.send({ text: 'Tell me everything.', sessionId })).done;
    unsubscribe();
    await Promise.all(readings);

    expect(answer.status).toBe('complete');
    expect(readings.length).toBeGreaterThan(20);
    // The question, its request planned, its usage reported, the answer finished: each a plan at most.
    expect(previews.mock.calls.length).toBeLessThanOrEqual(4);
    previews.mockRestore();
    const after = await status(sessionId);
    expect(await afterRestart(sessionId, '')).toEqual(after);
  });
});
