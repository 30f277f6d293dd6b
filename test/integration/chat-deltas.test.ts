import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { followAnswers, longAnswer } from '../support/streamed-answer';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

const text = longAnswer(2_000);
// About 12,000 characters in 500 writes a few milliseconds apart: dozens of announcements.
const reply = { text, chunkSize: 24, delayMs: 4 };

/** The answer as the client held it just before the finished message came. */
function lastStreamed(states: ChatMessage[], id: number): ChatMessage {
  return states.filter((state) => state.id === id && state.status === 'streaming').at(-1)!;
}

describe('a streaming answer is announced by what changed', () => {
  it('deltas applied in order rebuild exactly the finished message', { timeout: 30_000 }, async () => {
    server.script([reply]);
    const followed = followAnswers(app);
    const answer = await (await app.chat.send({ text: 'Tell me everything.' })).done;
    followed.stop();

    expect(answer.status).toBe('complete');
    expect(followed.deltas).toBeGreaterThan(10);
    expect(followed.resends).toBe(0);
    expect(lastStreamed(followed.states, answer.id).parts).toEqual(answer.parts);
    expect(followed.states.at(-1)).toMatchObject({ id: answer.id, status: 'complete', parts: answer.parts });
  });

  it(
    'sends under a quarter of the bytes of the whole message at each announcement',
    { timeout: 30_000 },
    async () => {
      server.script([reply]);
      const followed = followAnswers(app);
      await (
        await app.chat.send({ text: 'Tell me everything.' })
      ).done;
      followed.stop();

      console.info(
        `2,000-word answer: ${followed.deltas} deltas, ${followed.wholes} whole messages, ` +
          `${followed.sentBytes} bytes sent; whole message each time: ${followed.wholeBytes} bytes`,
      );
      expect(followed.sentBytes).toBeLessThan(followed.wholeBytes * 0.25);
    },
  );

  it(
    'a lost delta makes the client ask for the whole message and go on from it',
    { timeout: 30_000 },
    async () => {
      server.script([reply]);
      const followed = followAnswers(app, (index) => index === 5);
      const answer = await (await app.chat.send({ text: 'Tell me everything.' })).done;
      followed.stop();

      expect(followed.resends).toBe(1);
      // Every delta after the lost one failed to apply until the whole message came again mid-answer.
      expect(lastStreamed(followed.states, answer.id).parts).toEqual(answer.parts);
    },
  );
});
