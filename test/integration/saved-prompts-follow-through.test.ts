import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

const prompts = '_kasten/prompts';
/** A phrase only the body of "Atomic notes" holds. */
const noteText = 'One idea per note, so that links point at exactly one thing.';

function writeNote(path: string, content: string): void {
  mkdirSync(join(workspace.vault, path, '..'), { recursive: true });
  writeFileSync(join(workspace.vault, path), content);
}

/** Resolves with the answer `id` once it has ended. */
function ended(id: () => number): Promise<ChatMessage> {
  return new Promise((resolve) => {
    const stop = app.events.on('chat:message', (message) => {
      if (message.role !== 'assistant' || message.status === 'streaming' || message.id !== id()) return;
      stop();
      resolve(message);
    });
  });
}

async function runPrompt(input: { name: string; note?: string }) {
  let wanted = -1;
  const answer = ended(() => wanted);
  const turn = await app.handlers['prompts:send'](input);
  wanted = turn.assistantMessage.id;
  const done = app.chat.session(turn.session.id).messages.find((message) => message.id === wanted)!;
  return { turn, answer: done.status === 'streaming' ? await answer : done };
}

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  writeNote(`${prompts}/Summarize.md`, '---\nname: Summarize\n---\nSummarize {{note}} in one line.\n');
  writeNote(`${prompts}/Deep.md`, '---\nname: Deep\nmodel: big-model\n---\nThink hard about {{note}}.\n');
  writeNote(`${prompts}/Ghost.md`, '---\nname: Ghost\nmodel: ghost-model\n---\nWho am I?\n');
  writeNote(
    `${prompts}/Ruled.md`,
    '---\nname: Ruled\ninclude:\n  rules: [No such rule]\n---\nFollow the rules on {{title}}.\n',
  );
  server = await startScriptedModelServer({
    models: [
      { id: 'scripted-model', contextLength: 32_768 },
      { id: 'big-model', contextLength: 8_192 },
    ],
  });
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

describe('a saved prompt’s model:', () => {
  it('answers its message with the model it names; the chat goes on with its own', async () => {
    server.script([{ text: 'Deep thoughts.' }, { text: 'Plain.' }]);
    const { turn, answer } = await runPrompt({ name: 'Deep', note: 'Atomic notes.md' });
    expect(answer.status).toBe('complete');
    expect(server.chatRequests.at(-1)!.model).toBe('big-model');
    expect(answer.model).toBe('big-model');
    await (
      await app.chat.send({ sessionId: turn.session.id, text: 'And then?' })
    ).done;
    expect(server.chatRequests.at(-1)!.model).toBe('scripted-model');
  });

  it('plans its answer in the window of the model it names; the chat and its meter keep their own', async () => {
    server.script([{ text: 'Deep thoughts.' }, { text: 'Plain.' }]);
    const { turn, answer } = await runPrompt({ name: 'Deep', note: 'Atomic notes.md' });
    expect(answer.requests[0]!.window).toBe(8_192);
    const next = await (await app.chat.send({ sessionId: turn.session.id, text: 'And then?' })).done;
    expect(next.requests[0]!.window).toBe(32_768);
    const meter = await app.handlers['context:status']({ sessionId: turn.session.id });
    expect(meter.window).toBe(32_768);
  });

  it('a window the named model’s server refuses a request with is not kept for the chat’s model', async () => {
    // The first request to big-model is refused as too long, naming a window smaller than it listed.
    const tooLong = {
      error: {
        message:
          "This model's maximum context length is 3000 tokens. However, your messages resulted in 5000 tokens.",
        code: 'context_length_exceeded',
      },
    };
    server.script((_request, index) =>
      index === 0 ? { fault: 'status', status: 400, body: tooLong } : { text: 'Deep.' },
    );
    const { turn, answer } = await runPrompt({ name: 'Deep', note: 'Atomic notes.md' });
    expect(answer.status, answer.error ?? '').toBe('complete');
    expect(server.chatRequests.map((request) => request.model)).toEqual(['big-model', 'big-model']);
    expect(answer.requests.at(-1)).toMatchObject({ window: 3_000, retried: true });
    const meter = await app.handlers['context:status']({ sessionId: turn.session.id });
    expect(meter).toMatchObject({ window: 32_768, windowSource: expect.not.stringMatching(/server-error/) });
  });

  it('naming a model the server does not offer: warned in the list, and the send refused in words', async () => {
    const { prompts: listed } = await app.handlers['prompts:list'](undefined);
    const ghost = listed.find((prompt) => prompt.name === 'Ghost')!;
    expect(ghost.usable).toBe(false);
    expect(ghost.warnings.join(' ')).toMatch(/asks for the model “ghost-model”, which .* does not offer/);
    expect(listed.find((prompt) => prompt.name === 'Deep')!.warnings).toEqual([]);
    const sessions = app.chat.list().length;
    await expect(app.handlers['prompts:send']({ name: 'Ghost' })).rejects.toThrow(
      /^The prompt “Ghost” does not run: It asks for the model “ghost-model”, which http:\/\/127\.0\.0\.1:\d+\/v1 does not offer \(it offers big-model, scripted-model\)/,
    );
    expect(server.chatRequests).toHaveLength(0);
    expect(app.chat.list()).toHaveLength(sessions);
  });
});

describe('a saved prompt’s include:', () => {
  it('a rule that does not exist is a warning in the list before any send', async () => {
    const { prompts: listed } = await app.handlers['prompts:list'](undefined);
    const ruled = listed.find((prompt) => prompt.name === 'Ruled')!;
    expect(ruled.usable).toBe(false);
    expect(ruled.warnings).toContain('include: There is no rule “No such rule” in _kasten/rules.');
    expect(listed.find((prompt) => prompt.name === 'Summarize')!.usable).toBe(true);
  });
});

describe('Retry of a message from a saved prompt', () => {
  it('sends the prompt again with its note and its model', async () => {
    // The first call and its two automatic retries fail; the user's Retry gets through.
    server.script((_request, index) => (index < 3 ? { fault: 'status', status: 500 } : { text: 'Now.' }));
    const { turn, answer } = await runPrompt({ name: 'Deep', note: 'Atomic notes.md' });
    expect(answer.status).toBe('error');
    let wanted = -1;
    const retried = ended(() => wanted);
    wanted = (await app.chat.retry(turn.session.id)).assistantMessage.id;
    const again = await retried;
    expect(again.status).toBe('complete');
    const request = server.chatRequests.at(-1)!;
    expect(request.model).toBe('big-model');
    expect(JSON.stringify(request.messages)).toContain(noteText);
    expect(again.requests[0]!.items.map((item) => item.label)).toContain('{{note}} Atomic notes');
  });
});

describe('the meter while /Name is typed', () => {
  it('counts the note the prompt would bring, as the send will', async () => {
    const status = app.handlers['context:status'];
    const typed = await status({ draft: '/Summarize' });
    const called = await status({
      draft: '/Summarize',
      prompt: { name: 'Summarize', note: 'Atomic notes.md' },
    });
    const note = called.pinned.find((entry) => entry.path === 'Atomic notes.md');
    expect(note?.tokens).toBeGreaterThan(0);
    expect(called.estimated).toBeGreaterThanOrEqual(typed.estimated + note!.tokens);
    // What the send then puts in the request is what the meter counted for the note.
    server.script([{ text: 'Done.' }]);
    const { answer } = await runPrompt({ name: 'Summarize', note: 'Atomic notes.md' });
    const sent = answer.requests[0]!.items.find((item) => item.label === '{{note}} Atomic notes');
    expect(sent?.tokens).toBe(note!.tokens);
  });
});
