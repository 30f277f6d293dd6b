import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { ChatStore } from '../../src/main/chat/chat-store';
import { openAppDatabase } from '../../src/main/storage/app-database';
import { messageText, type ChatMessage } from '../../src/shared/chat-domain';
import { isSummaryRequest } from '../support/counting-model';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

const window = 4096;
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer({ models: [{ id: 'scripted-model', contextLength: window }] });
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
    compactionTimeoutMs: 1_000,
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

async function ask(text: string, sessionId?: string): Promise<ChatMessage> {
  return (await app.chat.send({ text, sessionId })).done;
}

describe('context faults end in a working chat or a clear message', () => {
  it('a note of 5 MB read by the model reaches it cut to fit, with how to read the rest', async () => {
    const big = `# Huge\n\n${'A line of the huge log that keeps going on. '.repeat(120_000)}\n`;
    writeFileSync(join(workspace.vault, 'Huge.md'), big);
    await app.dispose();
    app = await startIndexedApp(workspace.dataDir, workspace.vault, {
      model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
    });
    server.script([
      { toolCalls: [{ name: 'read_note', arguments: { note: 'Huge' } }] },
      { text: 'It is long.' },
    ]);
    const answer = await ask('Read [[Atomic notes]] and then the huge note.');
    expect(answer.status, answer.error ?? '').toBe('complete');
    const second = answer.requests.at(-1)!;
    expect(second.estimated).toBeLessThanOrEqual(second.usable);
    const sent = JSON.stringify(server.chatRequests[1]!.messages);
    expect(sent.length).toBeLessThan(100_000);
    expect(sent).toMatch(/omitted/);
  });

  it('a question longer than the whole window is not sent: the answer says what it needs, and it is kept', async () => {
    const question = `Please consider this: ${'every word of a very long pasted text '.repeat(900)}`;
    const answer = await ask(question);
    expect(answer.status).toBe('error');
    expect(answer.error).toMatch(/needs \d+ tokens, \d+ are available/);
    expect(server.chatRequests).toHaveLength(0);
    expect(answer.requests).toHaveLength(1);
    expect(answer.requests[0]!.overflow!.needed).toBeGreaterThan(answer.requests[0]!.overflow!.available);
    expect(messageText(app.chat.session(answer.sessionId).messages[0]!)).toBe(question.trim());
  });

  it('a server that reports no usage: the estimate stands, uncalibrated, and says so', async () => {
    server.script(() => ({ text: 'Fine.', usage: null }));
    const first = await ask('Question one about [[Atomic notes]]?');
    const second = await ask('Question two?', first.sessionId);
    expect(second.status).toBe('complete');
    const request = second.requests[0]!;
    expect(request.reported).toBeNull();
    expect(request.calibration.samples).toBe(0);
    expect(request.notices.join(' ')).toMatch(/reported no token usage/);
    expect((await app.context.status(first.sessionId)).calibration.samples).toBe(0);
  });

  it('absurd reported usage is ignored past a sanity bound', async () => {
    server.script([
      { text: 'One.', usage: { promptTokens: 3, completionTokens: 1 } },
      { text: 'Two.', usage: { promptTokens: 90_000_000, completionTokens: 1 } },
      { text: 'Three.' },
    ]);
    const first = await ask('Question one about [[Atomic notes]]?');
    const second = await ask('Question two?', first.sessionId);
    for (const answer of [first, second]) {
      expect(answer.requests[0]!.notices.join(' ')).toMatch(/not believed/);
    }
    const third = await ask('Question three?', first.sessionId);
    expect(third.requests[0]!.calibration.samples).toBe(0);
  });

  it('a summarization that times out falls back to discard with a notice, and the chat goes on', async () => {
    server.script((request) =>
      isSummaryRequest(request) ? { fault: 'hang' } : { text: `Answer. ${'More words here. '.repeat(150)}` },
    );
    let sessionId: string | undefined;
    const answers: ChatMessage[] = [];
    for (let turn = 1; turn <= 14; turn++) {
      const answer = await ask(`Question ${turn}: tell me about [[Zettelkasten method]].`, sessionId);
      sessionId = answer.sessionId;
      answers.push(answer);
      expect(answer.status, answer.error ?? '').toBe('complete');
    }
    const notices = answers.flatMap((answer) => answer.requests.flatMap((request) => request.notices));
    expect(notices.join(' ')).toMatch(/summar/i);
    expect(answers.at(-1)!.requests[0]!.strategy).toBe('discard');
    const session = app.chat.session(sessionId!);
    expect(session.compactions).toHaveLength(0);
    expect(session.messages).toHaveLength(28);
    expect(messageText(session.messages[0]!)).toMatch(/^Question 1:/);
  });

  it('a session of 5,000 messages is planned within its window', async () => {
    server.script(() => ({ text: 'Short answer.' }));
    const first = await ask('Question 0?');
    // Written through a second connection to the app database, as another Kasten process would.
    const db = openAppDatabase(workspace.dataDir);
    const chatStore = new ChatStore(db);
    for (let index = 1; index < 2500; index++) {
      chatStore.addMessage(first.sessionId, {
        role: 'user',
        parts: [{ type: 'text', step: 0, text: `Question ${index}: what about links and folders?` }],
        status: 'complete',
        model: null,
      });
      chatStore.addMessage(first.sessionId, {
        role: 'assistant',
        parts: [{ type: 'text', step: 0, text: `Answer ${index}: links matter more than folders.` }],
        status: 'complete',
        model: 'scripted-model',
      });
    }
    db.close();
    const status = await app.context.status(first.sessionId, 'And the last one?');
    expect(status.estimated).toBeLessThanOrEqual(status.usable);
    const answer = await ask('And the last one?', first.sessionId);
    expect(answer.status, answer.error ?? '').toBe('complete');
    expect(answer.requests[0]!.estimated).toBeLessThanOrEqual(answer.requests[0]!.usable);
    expect(app.chat.session(first.sessionId).messages).toHaveLength(5002);
  });
});
