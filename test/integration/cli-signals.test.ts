import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageText, type ChatMessage, type ChatSession } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace, waitFor } from '../support/temp-vault';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'kasten.js');
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let child: ChildProcess | null = null;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = null;
  await server.stop();
  workspace.remove();
});

/** Starts `kasten serve` on the scripted model and resolves with its address, token included. */
async function serve(): Promise<{ url: URL; output: () => string }> {
  const args = [
    bin,
    'serve',
    '--port',
    '0',
    '--vault',
    workspace.vault,
    '--data-dir',
    workspace.dataDir,
    '--base-url',
    `${server.url}/v1`,
    '--model',
    'scripted-model',
    '--no-summaries',
  ];
  const started = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  let log = '';
  started.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  started.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await waitFor(() => /Open http:\S+/.test(log) || started.exitCode !== null, 20_000, 'the printed URL');
  const address = /Open (http:\S+)/.exec(log)?.[1];
  if (!address) throw new Error(`kasten serve printed no URL:\n${log}`);
  return { url: new URL(address), output: () => log };
}

/**
 * Calls the host's API as the browser does, giving up after ten seconds: the host must answer (the first
 * message waits for the first index pass, which takes a few seconds on a loaded machine).
 */
async function call<T>(url: URL, channel: string, input: unknown): Promise<T> {
  const response = await fetch(new URL(`/api/${channel}`, url), {
    method: 'POST',
    headers: { authorization: `Bearer ${url.searchParams.get('token')}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(10_000),
  });
  const envelope = (await response.json()) as { ok: boolean; value: T; error?: { message: string } };
  if (!envelope.ok) throw new Error(`${channel} failed: ${envelope.error?.message}`);
  return envelope.value;
}

/** The session's last message once `ready` holds for it, read every 100 ms for up to 15 s. */
async function lastMessage(
  url: URL,
  sessionId: string,
  ready: (message: ChatMessage) => boolean,
): Promise<ChatMessage> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const message = (await call<ChatSession>(url, 'sessions:get', { id: sessionId })).messages.at(-1)!;
    if (ready(message) || Date.now() > deadline) return message;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('kasten serve', () => {
  it('keeps answering while the model floods it with tool calls, and on SIGTERM stops a never-ending answer, saves it and exits', async () => {
    server.script((_request, index) =>
      index === 0
        ? {
            toolCalls: Array.from({ length: 4000 }, () => ({
              name: 'search_notes',
              arguments: { query: 'links' },
            })),
            eventsPerWrite: 400,
          }
        : { text: 'and then '.repeat(100_000), chunkSize: 9, delayMs: 2 },
    );
    const { url, output } = await serve();

    const flooded = await call<{ session: { id: string } }>(url, 'chat:send', { text: 'Search everything.' });
    const sessionId = flooded.session.id;
    const answer = await lastMessage(url, sessionId, (message) => message.status !== 'streaming');
    expect(answer).toMatchObject({ status: 'error', error: expect.stringMatching(/tool calls at once/) });

    await call(url, 'chat:send', { sessionId, text: 'Then tell me everything.' });
    const streaming = await lastMessage(url, sessionId, (message) => messageText(message).length > 0);
    expect(streaming.status).toBe('streaming');
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`kasten serve still runs 5 s after SIGTERM:\n${output()}`)), 5000),
      ),
    ]);

    expect(code).toBe(0);
    const app = await startIndexedApp(workspace.dataDir, workspace.vault);
    try {
      expect(app.chat.session(sessionId).messages.map((message) => message.status)).toEqual([
        'complete',
        'error',
        'complete',
        'stopped',
      ]);
    } finally {
      await app.dispose();
    }
  });
});
