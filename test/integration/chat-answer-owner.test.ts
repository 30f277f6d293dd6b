import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { ChatStore } from '../../src/main/chat/chat-store';
import { runCli } from '../../src/main/hosts/cli';
import { openAppDatabase } from '../../src/main/storage/app-database';
import { messageText, type ChatMessage, type SessionSummary } from '../../src/shared/chat-domain';
import { builtIndexWorker } from '../support/built-worker';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { resourcesDir, tempWorkspace, waitFor } from '../support/temp-vault';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
const apps: KastenApp[] = [];

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.dispose();
  await server.stop();
  workspace.remove();
});

async function startApp(withModel = false): Promise<KastenApp> {
  const model = {
    provider: 'openai-compatible',
    baseUrl: `${server.url}/v1`,
    model: 'scripted-model',
  } as const;
  const app = await startIndexedApp(workspace.dataDir, workspace.vault, withModel ? { model } : {});
  apps.push(app);
  return app;
}

/** `kasten sessions <vault> --json` on the test's data directory, run in this process. */
async function sessionsCommand(): Promise<SessionSummary[]> {
  let printed = '';
  const code = await runCli(['sessions', workspace.vault, '--json', '--data-dir', workspace.dataDir], {
    rendererDir: join(workspace.base, 'no-renderer'),
    resourcesDir,
    indexWorker: builtIndexWorker,
    stdout: (text) => (printed += text),
    stderr: (text) => (printed += text),
    untilStopped: () => new Promise(() => {}),
  });
  expect(code).toBe(0);
  return JSON.parse(printed) as SessionSummary[];
}

function answerOf(app: KastenApp, sessionId: string): ChatMessage {
  return app.chat.session(sessionId).messages[1]!;
}

describe('an answer another Kasten process is writing', () => {
  it('stays streaming when a second app and `kasten sessions` start on the same data, and finishes complete', async () => {
    server.script([{ text: 'Slowly, word by word. '.repeat(40), chunkSize: 6, delayMs: 10 }]);
    const writer = await startApp(true);
    const turn = await writer.chat.send({ text: 'Tell me slowly.' });
    await new Promise<void>((resolve) => {
      const off = writer.events.subscribe((channel, payload) => {
        if (channel === 'chat:message' && messageText(payload as ChatMessage).length > 0) {
          off();
          resolve();
        }
      });
    });

    const reader = await startApp();
    const listed = await sessionsCommand();

    expect(listed.map((session) => session.id)).toEqual([turn.session.id]);
    expect(answerOf(reader, turn.session.id).status).toBe('streaming');
    const answer = await turn.done;
    expect(answer.status).toBe('complete');
    expect(answerOf(reader, turn.session.id)).toMatchObject({
      status: 'complete',
      error: null,
      parts: answer.parts,
    });
  });

  it('is marked interrupted, when sessions are next read, once the process writing it is gone', async () => {
    server.script([{ text: 'Words that never stop arriving. '.repeat(400), chunkSize: 4, delayMs: 10 }]);
    const args = [bin, 'ask', workspace.vault, 'Tell me everything.', '--data-dir', workspace.dataDir];
    args.push('--base-url', `${server.url}/v1`, '--model', 'scripted-model');
    const writer = spawn(process.execPath, args, { stdio: 'pipe' });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    let printed = '';
    writer.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      await waitFor(() => printed.length > 100, 20_000, 'streamed text');
      const reader = await startApp();
      const [session] = reader.chat.list();
      expect(answerOf(reader, session!.id).status).toBe('streaming');

      writer.kill('SIGKILL');
      await exited;

      expect(answerOf(reader, session!.id)).toMatchObject({
        status: 'interrupted',
        error: expect.stringMatching(/stopped while this answer was being written/),
      });
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('on another machine stays streaming while its lease holds, and is marked interrupted once it ran out', async () => {
    const db = openAppDatabase(workspace.dataDir);
    const store = new ChatStore(db);
    const session = store.createSession(workspace.vault, 'Elsewhere');
    const owner = { pid: process.pid, host: 'another-machine', run: 'its-run' };
    const answer = (leaseUntil: number) =>
      store.addMessage(session.id, {
        role: 'assistant',
        parts: [{ type: 'text', step: 0, text: 'Written elsewhere' }],
        status: 'streaming',
        model: 'scripted-model',
        owner: { owner, leaseUntil },
      });
    const leased = answer(Date.now() + 60_000);
    const expired = answer(Date.now() - 1);
    db.close();

    const app = await startApp();

    const statuses = new Map(
      app.chat.session(session.id).messages.map((message) => [message.id, message.status]),
    );
    expect(statuses.get(leased.id)).toBe('streaming');
    expect(statuses.get(expired.id)).toBe('interrupted');
  });
});
