import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { atMachine, dispatch } from '../../src/main/hosts/dispatch';
import { messageText, type ChatMessage } from '../../src/shared/chat-domain';
import { contextLevel } from '../../src/shared/context-domain';
import {
  countingServer,
  isSummaryRequest,
  serverPromptTokens,
  type CountingLog,
} from '../support/counting-model';
import { startIndexedApp } from '../support/indexed-app';
import { prose, summaryText, turnOf } from '../support/long-chat';
import { kasten } from '../support/run-cli';
import {
  startScriptedModelServer,
  type ChatRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

const window = 4096;
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  writeFileSync(join(workspace.vault, 'Long archive.md'), `# Long archive\n\n${prose('Archive', 6000)}\n`);
  writeFileSync(join(workspace.vault, 'Field guide.md'), `# Field guide\n\n${prose('Guide', 900)}\n`);
  server = await startScriptedModelServer({ models: [{ id: 'scripted-model', contextLength: window }] });
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
    compactionTimeoutMs: 5_000,
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

/** A model that reads a note or searches every third turn, then answers citing what it was given. */
function conversationScript(request: ChatRequest): ScriptedReply {
  if (isSummaryRequest(request)) return { text: summaryText };
  const turn = turnOf(request);
  const asked = request.messages.findLastIndex((message) =>
    JSON.stringify(message.content ?? '').includes(`Question ${turn}:`),
  );
  const toolsRan = request.messages.slice(asked + 1).some((message) => message.role === 'tool');
  if (turn % 3 === 0 && !toolsRan) {
    return turn % 2 === 0
      ? { toolCalls: [{ name: 'read_note', arguments: { note: 'Field guide' } }] }
      : { toolCalls: [{ name: 'search_notes', arguments: { query: 'links folders notes' } }] };
  }
  return { text: `Answer ${turn}: links connect notes better than folders do [1]. ${prose('Reply', 60)}` };
}

async function ask(text: string, sessionId?: string): Promise<ChatMessage> {
  return (await app.chat.send({ text, sessionId })).done;
}

describe('the context engine in a long chat', () => {
  it(
    'answers 60 turns in a 4,096-token window, retrying each refusal once, losing no message',
    { timeout: 180_000 },
    async () => {
      const log: CountingLog = { events: [] };
      server.script(countingServer(window, (request) => conversationScript(request), log));
      let sessionId: string | undefined;
      const numbered: string[] = [];
      for (let turn = 1; turn <= 60; turn++) {
        const link =
          turn % 10 === 1
            ? ' What does [[Long archive]] say?'
            : turn % 5 === 2
              ? ' See [[Field guide]].'
              : '';
        const answer = await ask(`Question ${turn}: how do links relate notes?${link}`, sessionId);
        sessionId = answer.sessionId;
        expect(answer.status, `turn ${turn}: ${answer.error}`).toBe('complete');
        expect(messageText(answer)).toContain(`Answer ${turn}:`);
        if (turn === 2) numbered.push(...app.chat.session(sessionId).documents.map((entry) => entry.path));
      }
      const session = app.chat.session(sessionId!);
      // Every original message is still there, in order, as it was written.
      expect(session.messages).toHaveLength(120);
      for (let turn = 1; turn <= 60; turn++) {
        expect(messageText(session.messages[(turn - 1) * 2]!)).toMatch(new RegExp(`^Question ${turn}:`));
      }
      // The long chat was compacted, and each refusal was followed at once by a successful retry.
      expect(session.compactions.length).toBeGreaterThan(0);
      const rejected = log.events.filter((event) => event.kind === 'rejected').length;
      expect(rejected).toBeLessThanOrEqual(session.compactions.length);
      log.events.forEach((event, index) => {
        if (event.kind === 'rejected') expect(log.events[index + 1]?.kind).toBe('answered');
      });
      // Nothing the server answered was over its window, and summaries cover older messages only.
      const newest = session.compactions.at(-1)!;
      expect(Math.max(...newest.coveredIds)).toBeLessThan(session.messages.at(-2)!.id);
      // Citation numbers mean the same notes after the compactions as before.
      const after = session.documents.map((entry) => entry.path);
      expect(after.slice(0, numbered.length)).toEqual(numbered);
      const lastCited = session.messages.at(-1)!.references.find((reference) => reference.kind === 'cited');
      expect(lastCited?.path).toBe(numbered[0]);
    },
  );

  it('after the first answer the estimate is within 3% of what the server counts', async () => {
    const log: CountingLog = { events: [] };
    server.script(countingServer(window, (request) => conversationScript(request), log));
    const first = await ask('Question 1: how do links relate notes? See [[Field guide]].');
    expect(first.requests[0]!.reported).toBe(serverPromptTokens(server.chatRequests[0]!));

    for (let turn = 2; turn <= 5; turn++) {
      const question = `Question ${turn}: and what about folders in [[Zettelkasten method]]?`;
      // The status bar's figure for the message being typed, before it is sent…
      const status = await app.context.status(first.sessionId, question);
      const answer = await ask(question, first.sessionId);
      const sent = answer.requests[0]!;
      const counted = serverPromptTokens(server.chatRequests.at(answer.requests.length === 1 ? -1 : -2)!);
      // …and the request's own estimate, both against the server's count of that request.
      expect(Math.abs(sent.estimated - counted) / counted, `turn ${turn}`).toBeLessThanOrEqual(0.03);
      expect(Math.abs(status.estimated - counted) / counted, `turn ${turn} status`).toBeLessThanOrEqual(0.03);
      expect(sent.calibration.samples).toBeGreaterThan(0);
    }
  });

  it('records what each request held, adding up to its estimate, and kasten ask --json reports it', async () => {
    server.script(countingServer(window, (request) => conversationScript(request), { events: [] }));
    const answer = await ask('Question 2: what does [[Field guide]] say?');
    const request = answer.requests.at(-1)!;
    expect(request.items.reduce((sum, item) => sum + item.tokens, 0)).toBe(request.estimated);
    expect(request.parts.reduce((sum, part) => sum + part.tokens, 0)).toBe(request.estimated);
    expect(request.items).toContainEqual(
      expect.objectContaining({ kind: 'reference', path: 'Field guide.md', include: 'direct' }),
    );
    expect(request.items.map((item) => item.kind)).toEqual(
      expect.arrayContaining(['system', 'tools', 'current']),
    );
    expect(request.window).toBe(window);
    // The stored record is what the session shows later.
    expect(app.chat.session(answer.sessionId).messages[1]!.requests).toEqual(answer.requests);

    await app.dispose();
    const run = await kasten(
      'ask',
      workspace.vault,
      'Question 3: and [[Atomic notes]]?',
      '--session',
      answer.sessionId,
      '--json',
      '--strategy',
      'discard',
      '--provider',
      'openai-compatible',
      '--base-url',
      `${server.url}/v1`,
      '--model',
      'scripted-model',
      '--data-dir',
      workspace.dataDir,
    );
    app = await startIndexedApp(workspace.dataDir, workspace.vault);
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(run.out);
    expect(report.context).toMatchObject({ window, strategy: 'discard', compactions: 0 });
    expect(report.context.estimated).toBe(
      report.context.parts.reduce((sum: number, part: { tokens: number }) => sum + part.tokens, 0),
    );
    expect(report.context.reported).toBeGreaterThan(0);
    expect(report.requestContext).toContainEqual(
      expect.objectContaining({
        kind: 'reference',
        label: 'Atomic notes',
        path: 'Atomic notes.md',
        include: 'direct',
      }),
    );

    const context = await kasten(
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
    expect(context.code, context.err).toBe(0);
    const status = JSON.parse(context.out);
    expect(status).toMatchObject({ window, strategy: 'hybrid' });
    expect(status.level).toBe(contextLevel(status.estimated, status.usable));
  });

  it('the meter shows no current message while nothing is typed: its framing counts with the system prompt', async () => {
    const part = (status: { parts: { part: string; tokens: number }[] }, kind: string) =>
      status.parts.filter((entry) => entry.part === kind).reduce((sum, entry) => sum + entry.tokens, 0);
    const empty = await app.context.status(undefined, '');
    const typed = await app.context.status(undefined, 'How do links relate notes?');
    expect(empty.draftTokens).toBe(0);
    expect(part(empty, 'current')).toBe(0);
    expect(part(typed, 'current')).toBe(typed.draftTokens);
    expect(typed.draftTokens).toBeGreaterThan(0);
    // The few tokens every message is wrapped in are still counted: the parts add up to the estimate.
    for (const status of [empty, typed]) {
      expect(status.parts.reduce((sum, entry) => sum + entry.tokens, 0)).toBe(status.estimated);
    }
    expect(part(empty, 'system')).toBeGreaterThan(part(typed, 'system'));
  });

  it('a refusal as too long is retried once, smaller; a second refusal says what it needs and what to do', async () => {
    // The server runs a smaller window than the one it advertises: Kasten plans with 4,096, it holds 1,200.
    const log: CountingLog = { events: [] };
    const answers = (request: ChatRequest): ScriptedReply =>
      isSummaryRequest(request) ? { text: summaryText } : { text: `Answer ${turnOf(request)}: see [1].` };
    server.script(countingServer(1200, answers, log));
    let sessionId: string | undefined;
    for (let turn = 1; turn <= 5; turn++) {
      const answer = await ask(`Question ${turn}: what does [[Long archive]] say?`, sessionId);
      sessionId = answer.sessionId;
      expect(answer.status, answer.error ?? '').toBe('complete');
    }
    const kinds = log.events.map((event) => event.kind);
    expect(kinds).toContain('rejected');
    kinds.forEach((kind, index) => {
      if (kind === 'rejected') expect(kinds[index + 1]).toBe('answered');
    });
    const retried = app.chat
      .session(sessionId!)
      .messages.flatMap((message) => message.requests)
      .filter((request) => request.retried);
    expect(retried.length).toBe(kinds.filter((kind) => kind === 'rejected').length);

    // A server whose window holds not even the shortened request.
    server.script(countingServer(300, answers, log));
    const refused = await ask('Question 6: and now?', sessionId);
    expect(refused.status).toBe('error');
    expect(refused.error).toMatch(/needs \d+ tokens, \d+ are available/);
    expect(refused.error).toMatch(/\/compact|new chat/);
    // The request that was refused again is recorded with what it needed, for the user to see.
    expect(refused.requests.at(-1)).toMatchObject({
      retried: true,
      overflow: { available: expect.any(Number) },
    });
    // The question is kept: nothing typed is lost.
    expect(messageText(app.chat.session(sessionId!).messages.at(-2)!)).toBe('Question 6: and now?');
  });

  it('a note larger than the whole window arrives cut, with how to read the rest, and the chat goes on', async () => {
    server.script(countingServer(window, (request) => conversationScript(request), { events: [] }));
    const answer = await ask('Question 1: summarize [[Long archive]].');
    expect(answer.status).toBe('complete');
    const item = answer.requests[0]!.items.find((entry) => entry.path === 'Long archive.md')!;
    expect(['cut', 'fallback']).toContain(item.form);
    expect(answer.requests[0]!.estimated).toBeLessThanOrEqual(answer.requests[0]!.usable);
  });

  it('/compact summarizes on demand; a summarizer that fails falls back with a notice and loses nothing', async () => {
    server.script(countingServer(window, (request) => conversationScript(request), { events: [] }));
    let sessionId: string | undefined;
    for (let turn = 1; turn <= 6; turn++)
      sessionId = (await ask(`Question ${turn}: more on links?`, sessionId)).sessionId;

    server.script(() => ({ text: 'I would rather keep chatting.' }));
    const failed = await app.chat.compact(sessionId!, 'links');
    expect(failed.compaction).toBeNull();
    expect(failed.notice).toMatch(/summar/i);

    server.script(() => ({ text: summaryText }));
    const done = await app.chat.compact(sessionId!, 'links');
    expect(done.compaction?.coveredIds.length).toBeGreaterThan(0);
    expect(done.compaction?.tokens).toBeLessThan(done.compaction!.replacedTokens);
    const session = app.chat.session(sessionId!);
    expect(session.messages).toHaveLength(12);
    expect(session.compactions).toHaveLength(1);
  });
});

async function restart(): Promise<void> {
  await app.dispose();
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });
}

describe('the context settings', () => {
  it('shares, threshold and new chats’ strategy are the user’s, kept, and followed by every request', async () => {
    server.script(() => ({ text: 'Fine.' }));
    // About 230 tokens: with the tool schemas within 30% of the usable window, not within 10%.
    mkdirSync(join(workspace.vault, '_kasten', 'rules'), { recursive: true });
    writeFileSync(
      join(workspace.vault, '_kasten', 'rules', 'House style.md'),
      `---\ninclude: always\n---\n${prose('Style', 170)}\n`,
    );
    // About 310 tokens: a note the user links is not bounded by that share.
    writeFileSync(join(workspace.vault, 'Middle note.md'), `# Middle note\n\n${prose('Middle', 220)}\n`);
    await restart();
    const before = await ask('Question 1: what does [[Middle note]] say?');
    const rule = (answer: ChatMessage) =>
      answer.requests[0]!.items.find((item) => item.label === 'House style');
    const guide = (answer: ChatMessage) =>
      answer.requests[0]!.items.find((item) => item.path === 'Middle note.md')!;
    expect(rule(before)?.form).toBe('whole');
    expect(guide(before).form).toBe('whole');

    const settings = await app.handlers['context:settings'](undefined);
    expect(settings).toEqual({
      strategy: 'hybrid',
      shares: { system: 10, context: 30, conversation: 60 },
      threshold: 80,
      tailTurns: 4,
    });
    // Through the contract, as a host passes it: shares that do not add up are refused.
    const refused = await dispatch(
      app,
      'context:configure',
      { ...settings, shares: { system: 10, context: 30, conversation: 30 } },
      atMachine,
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-input', message: /add up to 100/ } });
    await app.handlers['context:configure']({
      strategy: 'discard',
      shares: { system: 10, context: 10, conversation: 80 },
      threshold: 70,
      tailTurns: 2,
    });

    // Kept across a restart, and followed: the rule no longer fits the smaller share whole; the note
    // named in the message still does, as the conversation gives way to it.
    await restart();
    expect((await app.handlers['context:settings'](undefined)).strategy).toBe('discard');
    const after = await ask('Question 1: what does [[Middle note]] say?');
    expect(rule(after)?.form ?? 'left out').not.toBe('whole');
    expect(guide(after).form).toBe('whole');
    expect(app.chat.session(after.sessionId).strategy).toBe('discard');
    expect(after.requests[0]!.strategy).toBe('discard');
    // A chat started before keeps its own strategy.
    expect(app.chat.session(before.sessionId).strategy).toBe('hybrid');
  });
});
