import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppOptions, KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { countingServer, isSummaryRequest, type CountingLog } from '../support/counting-model';
import { startIndexedApp } from '../support/indexed-app';
import { prose, summaryText, turnOf } from '../support/long-chat';
import { breaks, reprocessedShare } from '../support/prompt-prefix';
import {
  startScriptedModelServer,
  type ChatRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace> | null = null;
let server: ScriptedModelServer | null = null;
let app: KastenApp | null = null;

afterEach(async () => {
  await app?.dispose();
  await server?.stop();
  workspace?.remove();
  app = server = workspace = null;
});

const hour = 3_600_000;

/** Searches every third turn and reads a note every fourth, then answers citing what it was given. */
function script(request: ChatRequest): ScriptedReply {
  if (isSummaryRequest(request)) return { text: summaryText };
  const turn = turnOf(request);
  const asked = request.messages.findLastIndex((message) =>
    JSON.stringify(message.content ?? '').includes(`Question ${turn}:`),
  );
  const ran = request.messages.slice(asked + 1).filter((message) => message.role === 'tool').length;
  if (turn % 3 === 0 && ran === 0) {
    return { toolCalls: [{ name: 'search_notes', arguments: { query: `links folders ${turn}` } }] };
  }
  if (turn % 4 === 0 && ran < (turn % 3 === 0 ? 2 : 1)) {
    return { toolCalls: [{ name: 'read_note', arguments: { note: `Topic ${turn % 5}` } }] };
  }
  return { text: `Answer ${turn}: links connect notes better than folders do [1]. ${prose('Reply', 80)}` };
}

/** A vault of a few notes, a scripted server with a `window`-token context, and the app on a fake clock. */
async function setUp(window: number, start: Date, options: Partial<AppOptions> = {}, noteWords = 700) {
  workspace = tempWorkspace('chat');
  for (let topic = 0; topic < 5; topic++) {
    const text = `# Topic ${topic}\n\n${prose(`Topic${topic}`, noteWords)}\n`;
    writeFileSync(join(workspace.vault, `Topic ${topic}.md`), text);
  }
  writeFileSync(join(workspace.vault, 'Field guide.md'), `# Field guide\n\n${prose('Guide', 900)}\n`);
  server = await startScriptedModelServer({
    models: [
      { id: 'scripted-model', contextLength: window },
      { id: 'other-model', contextLength: window },
    ],
  });
  const log: CountingLog = { events: [] };
  server.script(countingServer(window, script, log));
  const clock = { now: start };
  const appOptions: Partial<AppOptions> = {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
    compactionTimeoutMs: 5_000,
    now: () => clock.now,
    ...options,
  };
  app = await startIndexedApp(workspace.dataDir, workspace.vault, appOptions);
  return { clock, log, appOptions };
}

/** Asks `Question turn: …` (linking a note now and then) in the session, and waits for the answer. */
async function ask(turn: number, sessionId: string | undefined): Promise<ChatMessage> {
  const link = turn % 4 === 2 ? ' See [[Field guide]].' : turn % 5 === 1 ? ` And [[Topic ${turn % 5}]]?` : '';
  const text = `Question ${turn}: how do links relate notes?${link}`;
  const answer = await (await app!.chat.send({ text, sessionId })).done;
  expect(answer.status, `turn ${turn}: ${answer.error}`).toBe('complete');
  return answer;
}

/** Turns `from`…`to` of one chat, `apartMs` apart on the clock. */
async function chat(
  clock: { now: Date },
  from: number,
  to: number,
  sessionId?: string,
  apartMs = hour,
): Promise<string> {
  for (let turn = from; turn <= to; turn++) {
    sessionId = (await ask(turn, sessionId)).sessionId;
    clock.now = new Date(clock.now.getTime() + apartMs);
  }
  return sessionId!;
}

const chatRequests = () => server!.chatRequests.filter((request) => !isSummaryRequest(request));

describe('requests a model server can reuse', () => {
  it('a 12-turn chat with turns an hour apart only appends: each request starts with the one before', async () => {
    const { clock } = await setUp(32_768, new Date(2026, 10, 26, 9, 5));
    await chat(clock, 1, 12);
    const requests = chatRequests();
    // Every request of a turn, and the first of the next turn, start with the request before it.
    expect(breaks(requests)).toEqual([]);
    // The time of day closes each request; the system prompt names the day only.
    const last = requests.at(-1)!;
    expect(JSON.stringify(last.messages[0])).toMatch(/Today is Thursday, 26 November 2026 \(UTC[^)]*\)\./);
    expect(JSON.stringify(last.messages[0])).not.toContain('The time is');
    expect(JSON.stringify(last.messages.at(-1))).toContain('<system-reminder>The time is 20:05');
    const measured = reprocessedShare(requests);
    console.log(
      `12 turns in 32k: ${(measured.share * 100).toFixed(1)}% of prompt characters processed again`,
    );
    expect(measured.share).toBeLessThan(0.15);
  });

  it('in an 8k window, a compaction is followed by at least three turns that only append', async () => {
    // Notes of 300 words: a turn that reads one is about a tenth of the usable window.
    const { clock } = await setUp(8_192, new Date(2026, 10, 26, 8, 5), {}, 300);
    const sessionId = await chat(clock, 1, 16);
    expect(app!.chat.session(sessionId).compactions.length).toBeGreaterThan(0);
    const requests = chatRequests();
    const summaryOf = (request: ChatRequest) => {
      const first = JSON.stringify(request.messages[1]?.content ?? '');
      return first.includes('<conversation-summary>') ? first.split('</conversation-summary>')[0]! : null;
    };
    const compacted = requests.flatMap((request, index) =>
      index > 0 && summaryOf(request) !== null && summaryOf(request) !== summaryOf(requests[index - 1]!)
        ? [turnOf(request)]
        : [],
    );
    expect(compacted.length).toBeGreaterThan(0);
    const brokenTurns = breaks(requests).map(({ at }) => turnOf(requests[at]!));
    for (const turn of compacted) {
      const soon = brokenTurns.filter((broken) => broken > turn && broken <= turn + 3);
      expect(soon, `compacted at turn ${turn}; prefix changed at turns ${brokenTurns.join(', ')}`).toEqual(
        [],
      );
    }
    const measured = reprocessedShare(requests);
    console.log(`16 turns in 8k: ${(measured.share * 100).toFixed(1)}% of prompt characters processed again`);
  });

  it('the clock passing midnight changes the prefix once, at the system prompt', async () => {
    const { clock } = await setUp(32_768, new Date(2026, 10, 26, 22, 5));
    await chat(clock, 1, 5);
    const requests = chatRequests();
    const found = breaks(requests);
    expect(found).toEqual([{ at: expect.any(Number), message: 0 }]);
    expect(turnOf(requests[found[0]!.at]!)).toBe(3);
    expect(JSON.stringify(requests.at(-1)!.messages[0])).toContain('Friday, 27 November 2026');
  });

  it('a model switch mid-chat changes the prefix once', async () => {
    const { clock, appOptions } = await setUp(32_768, new Date(2026, 10, 26, 9, 5));
    const sessionId = await chat(clock, 1, 4);
    const before = chatRequests().length;
    await app!.dispose();
    app = await startIndexedApp(workspace!.dataDir, workspace!.vault, {
      ...appOptions,
      model: { provider: 'openai-compatible', baseUrl: `${server!.url}/v1`, model: 'other-model' },
    });
    await chat(clock, 5, 8, sessionId);
    const requests = chatRequests();
    expect(requests.at(-1)!.model).toBe('other-model');
    expect(breaks(requests).filter(({ at }) => at >= before).length).toBeLessThanOrEqual(1);
  });
});

describe('a failed answer', () => {
  it('stays a turn: the next question is sent as its own, after a stub saying the first got no answer', async () => {
    const { clock } = await setUp(32_768, new Date(2026, 10, 26, 9, 5));
    const sessionId = await chat(clock, 1, 1);
    server!.script([{ fault: 'cut', text: 'Links are' }]);
    const failed = await (await app!.chat.send({ text: 'Question 2: what about tags?', sessionId })).done;
    expect(failed.status).toBe('error');
    server!.script(() => ({ text: 'Answer 3: folders hold, links relate.' }));
    const answer = await (await app!.chat.send({ text: 'Question 3: and folders?', sessionId })).done;
    expect(answer.status).toBe('complete');
    const sent = server!.chatRequests.at(-1)!.messages;
    const second = sent.findIndex((message) => JSON.stringify(message.content).includes('Question 2:'));
    expect(sent[second]!.role).toBe('user');
    expect(JSON.stringify(sent[second]!.content)).not.toContain('Question 3:');
    expect(sent[second + 1]).toMatchObject({
      role: 'assistant',
      content: expect.stringMatching(/No answer/),
    });
    expect(sent[second + 2]!.role).toBe('user');
    expect(JSON.stringify(sent[second + 2]!.content)).toMatch(/^"Question 3: and folders\?/);
  });
});

describe('cached tokens', () => {
  it('an OpenAI-compatible server’s cached tokens are kept with the request; more than the prompt is not believed', async () => {
    await setUp(32_768, new Date(2026, 10, 26, 9, 5));
    server!.script([
      { text: 'First.', usage: { promptTokens: 2_804, completionTokens: 3, cachedTokens: 2_310 } },
      { text: 'Second.', usage: { promptTokens: 900, completionTokens: 3, cachedTokens: 5_000 } },
    ]);
    const first = await (await app!.chat.send({ text: 'Question 1: links?' })).done;
    expect(first.requests[0]).toMatchObject({ reported: 2_804, cached: 2_310 });
    // What "Context used" shows is the stored record.
    expect(app!.chat.session(first.sessionId).messages[1]!.requests[0]!.cached).toBe(2_310);
    const second = await (
      await app!.chat.send({ text: 'Question 2: more?', sessionId: first.sessionId })
    ).done;
    expect(second.requests[0]!.cached).toBeNull();
    expect(second.requests[0]!.notices.join(' ')).toMatch(
      /5000 prompt tokens from its cache .* not believed/,
    );
  });

  it('Anthropic requests mark the system prompt and the history for caching, and its cache reads are kept', async () => {
    workspace = tempWorkspace('chat');
    server = await startScriptedModelServer({ models: [{ id: 'claude-test', contextLength: 32_768 }] });
    server.script((request) => ({
      text: `Answer ${turnOf(request)}.`,
      usage: { promptTokens: 1_500, completionTokens: 4, cachedTokens: 1_200 },
    }));
    app = await startIndexedApp(workspace.dataDir, workspace.vault, {
      model: {
        provider: 'anthropic',
        baseUrl: `${server.url}/v1`,
        model: 'claude-test',
        contextWindow: 32_768,
      },
    });
    const first = await (await app.chat.send({ text: 'Question 1: links?' })).done;
    expect(first.status, first.error ?? '').toBe('complete');
    const answer = await (
      await app.chat.send({ text: 'Question 2: more?', sessionId: first.sessionId })
    ).done;
    const body = server.chatRequests.at(-1)!.body as {
      system: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] }[];
    };
    expect(body.system.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    // The message before the last (the history's end) carries the second breakpoint.
    expect(body.messages.at(-2)!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages.at(-1)!.content.at(-1)!.cache_control).toBeUndefined();
    expect(answer.requests[0]).toMatchObject({ reported: 1_500, cached: 1_200 });
  });
});
