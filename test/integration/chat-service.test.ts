import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messageText, type ChatMessage } from '../../src/shared/chat-domain';
import type { KastenApp } from '../../src/main/app';
import type { MessageDelta } from '../../src/shared/chat/message-delta';
import { contextNotices } from '../../src/renderer/src/features/chat/message-notices';
import { appendedText } from '../support/streamed-answer';
import { createIndexedApp, startIndexedApp } from '../support/indexed-app';
import { writeSyntheticVault } from '../support/synthetic-vault';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

function modelOptions(baseUrl = `${server.url}/v1`) {
  return {
    model: { provider: 'openai-compatible', baseUrl, model: 'scripted-model', apiKeyEnv: 'KASTEN_TEST_KEY' },
    env: { KASTEN_TEST_KEY: 'secret-key' },
  } as const;
}

async function startApp(baseUrl?: string): Promise<KastenApp> {
  return startIndexedApp(workspace.dataDir, workspace.vault, modelOptions(baseUrl));
}

/** Everything the model server was sent, as one string: what could have left the machine. */
function sentToModel(): string {
  return JSON.stringify(server.chatRequests.map((request) => request.messages));
}

async function ask(text: string, sessionId?: string): Promise<ChatMessage> {
  const turn = await app.chat.send({ text, sessionId });
  return turn.done;
}

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startApp();
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

describe('a chat turn', () => {
  it('records direct, search-hit, read and cited references, and numbers documents for the session', async () => {
    server.script([
      { toolCalls: [{ id: 'call-search', name: 'search_notes', arguments: { query: 'links' } }] },
      { toolCalls: [{ id: 'call-read', name: 'read_note', arguments: { note: 'Atomic notes' } }] },
      { text: 'Links connect cards [1]; one idea per note keeps them precise [2].' },
    ]);
    const answer = await ask('What does [[Zettelkasten method]] say about links? Also [[No such note]].');

    expect(answer.status).toBe('complete');
    expect(messageText(answer)).toContain('Links connect cards [1]');
    const session = app.chat.session(answer.sessionId);
    const user = session.messages[0]!;
    expect(user.references.map((reference) => [reference.path, reference.kind, reference.mode])).toEqual([
      ['Zettelkasten method.md', 'direct', 'inline'],
      ['No such note', 'broken', null],
    ]);
    // The linked note went to the model whole, and the broken one was reported as missing.
    const first = JSON.stringify(server.chatRequests[0]!.messages);
    expect(first).toContain('Links between notes matter more than folders');
    expect(first).toContain('The note [[No such note]] does not exist in the vault.');
    // After the search ran, the last message reminds the model to cite.
    expect(JSON.stringify(server.chatRequests[1]!.messages.at(-1))).toContain('cite');

    const kinds = answer.references.map((reference) => `${reference.kind}:${reference.path}`);
    expect(kinds).toContain('search-hit:Zettelkasten method.md');
    expect(kinds).toContain('search-hit:Atomic notes.md');
    expect(kinds).toContain('read:Atomic notes.md');
    expect(kinds).toContain('cited:Zettelkasten method.md');
    expect(kinds).toContain('cited:Atomic notes.md');
    expect(kinds).not.toContain('search-hit:Gardening.md');
    // The direct reference was numbered first and keeps number 1 in the search results.
    expect(session.documents.slice(0, 2).map((document) => document.path)).toEqual([
      'Zettelkasten method.md',
      'Atomic notes.md',
    ]);
    const read = answer.parts.find((part) => part.type === 'tool-call' && part.name === 'read_note');
    expect(read).toMatchObject({ ok: true });
    expect(JSON.parse((read as { output: string }).output)).toMatchObject({
      document: 2,
      title: 'Atomic notes',
      path: 'Atomic notes.md',
    });
    expect(answer.usage?.inputTokens).toBeGreaterThan(0);
    // The key went to the server, never into the stored session.
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer secret-key');
  });

  it('gives every reference what the model received from that note: a snippet, a whole note, both searches', async () => {
    server.script([
      { toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }] },
      { toolCalls: [{ name: 'read_note', arguments: { note: 'Atomic notes' } }] },
      { toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }] },
      { text: 'Done.' },
    ]);
    const answer = await ask('What is said about links?');
    const tokensOf = (kind: string, path: string) =>
      answer.references.find((entry) => entry.kind === kind && entry.path === path)?.tokens;
    const hit = tokensOf('search-hit', 'Atomic notes.md')!;
    const read = tokensOf('read', 'Atomic notes.md')!;
    expect(hit).toBeGreaterThan(10);
    const readOutput = answer.parts.find((part) => part.type === 'tool-call' && part.name === 'read_note');
    const wholeNote = (readOutput as { output: string }).output;
    // Calibrated tokens of the read document: about a token for every four characters of it.
    expect(read).toBeGreaterThan(wholeNote.length / 8);
    expect(read).toBeLessThan(wholeNote.length);
    // The same search twice: the snippet reached the model twice.
    const searches = answer.parts.filter((part) => part.type === 'tool-call' && part.name === 'search_notes');
    expect(searches).toHaveLength(2);
    const once = JSON.parse((searches[0] as { output: string }).output) as { path: string }[];
    expect(once.some((entry) => entry.path === 'Atomic notes.md')).toBe(true);
    const single = await (async () => {
      server.script([
        { toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }] },
        { text: 'Ok.' },
      ]);
      const other = await ask('Links again?');
      return other.references.find(
        (entry) => entry.kind === 'search-hit' && entry.path === 'Atomic notes.md',
      )!.tokens!;
    })();
    expect(hit).toBe(single * 2);
    // A search hit is a title, a path and a snippet; the read gave the whole note.
    expect(read).toBeGreaterThan(single);
    // Stored with the answer: a reload shows the same costs.
    const stored = app.chat.session(answer.sessionId).messages.find((message) => message.id === answer.id)!;
    expect(stored.references.find((entry) => entry.kind === 'read')?.tokens).toBe(read);
  });

  it('keeps document numbers across turns and reads one heading section', async () => {
    server.script([
      { toolCalls: [{ name: 'read_note', arguments: { note: 'ZK', heading: 'Links' } }] },
      { text: 'See [1].' },
      { toolCalls: [{ name: 'search_notes', arguments: { query: 'idea' } }] },
      { text: 'Also [2] and [1].' },
    ]);
    const first = await ask('What is said about links?');
    const read = first.parts.find((part) => part.type === 'tool-call')!;
    const document = JSON.parse((read as { output: string }).output) as { heading: string; content: string };
    expect(document.heading).toBe('Links');
    expect(document.content).toContain('Links between notes matter');
    expect(document.content).not.toContain('An entry note lists');

    const second = await ask('And atomic notes?', first.sessionId);
    expect(second.status).toBe('complete');
    const session = app.chat.session(first.sessionId);
    expect(session.documents.find((entry) => entry.number === 1)?.path).toBe('Zettelkasten method.md');
    expect(
      second.references.filter((entry) => entry.kind === 'cited').map((entry) => entry.document),
    ).toEqual([2, 1]);
    // The earlier answer is part of the conversation the model sees.
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain('See [1].');
  });

  it('sent while the first index is still being built, waits for it and finds the notes it links', async () => {
    await app.dispose();
    writeSyntheticVault(join(workspace.vault, 'bulk'), { notes: 1500, seed: 3 });
    mkdirSync(join(workspace.vault, 'zz'));
    writeFileSync(
      join(workspace.vault, 'zz', 'Waiting target.md'),
      '# Waiting target\n\nRead last of all.\n',
    );
    // A new data directory: a cold index of 1,500 notes, not awaited.
    app = createIndexedApp(join(workspace.base, 'cold-data'), workspace.vault, modelOptions());
    await app.start();
    // The race this is about: the note is not in the index yet when the message is sent.
    expect(app.index.note('zz/Waiting target.md')).toBeNull();
    server.script([{ text: 'It is read last [1].' }]);

    const answer = await ask('What is [[Waiting target]]?');

    const user = app.chat.session(answer.sessionId).messages[0]!;
    expect(user.references.map((reference) => [reference.path, reference.kind])).toEqual([
      ['zz/Waiting target.md', 'direct'],
    ]);
    expect(sentToModel()).toContain('Read last of all.');
  });

  it('waiting for the index ends when indexing is cancelled, and the message is answered', async () => {
    await app.dispose();
    writeSyntheticVault(join(workspace.vault, 'bulk'), { notes: 3000, seed: 4 });
    app = createIndexedApp(join(workspace.base, 'cold-data'), workspace.vault, modelOptions());
    await app.start();
    server.script([{ text: 'Answered without waiting.' }]);

    const events: string[] = [];
    const turn = app.chat.send({ text: 'What is in [[Zettelkasten method]]?' }).then((started) => {
      events.push('sent');
      return started;
    });
    // Notes indexed after the message was sent: the index ran on while the message waited for it.
    await vi.waitFor(() => expect(app.index.status().progress.done).toBeGreaterThan(0), { timeout: 10_000 });
    events.push('cancelled');
    app.index.cancel();

    const answer = await (await turn).done;
    expect(events).toEqual(['cancelled', 'sent']);
    expect(answer.status).toBe('complete');
    expect(messageText(answer)).toBe('Answered without waiting.');
    expect(app.index.status().progress.state).toBe('cancelled');
  });
});

describe('vault tools stay inside the vault', () => {
  it('refuses .., absolute paths and symlinks leaving the vault, and sends nothing from outside', async () => {
    const outside = join(workspace.base, 'secret.md');
    writeFileSync(outside, 'TOP-SECRET-OUTSIDE-THE-VAULT');
    symlinkSync(outside, join(workspace.vault, 'escape.md'));
    server.script([
      {
        toolCalls: [
          { id: 'a', name: 'read_note', arguments: { note: '../../etc/passwd' } },
          { id: 'b', name: 'read_note', arguments: { note: '/etc/passwd' } },
          { id: 'c', name: 'read_note', arguments: { note: 'escape.md' } },
          { id: 'd', name: 'read_note', arguments: { note: '../secret.md' } },
        ],
      },
      { text: 'I cannot read those.' },
    ]);
    const answer = await ask('Read the system files.');
    const calls = answer.parts.filter((part) => part.type === 'tool-call');
    expect(calls.map((call) => call.ok)).toEqual([false, false, false, false]);
    expect(calls.map((call) => call.output)).toEqual([
      expect.stringContaining('outside the vault'),
      expect.stringContaining('absolute path'),
      expect.stringMatching(/outside the vault|does not exist/),
      expect.stringContaining('outside the vault'),
    ]);
    expect(sentToModel()).not.toContain('TOP-SECRET');
    expect(sentToModel()).not.toContain('root:x:0');
    expect(answer.status).toBe('complete');
    expect(answer.references).toEqual([]);
  });
});

describe('failures end in a clear message and keep what was written', () => {
  async function failingAnswer(): Promise<ChatMessage> {
    const answer = await ask('What does [[Atomic notes]] say?');
    const session = app.chat.session(answer.sessionId);
    expect(session.messages[0]!.parts[0]).toMatchObject({
      type: 'text',
      text: 'What does [[Atomic notes]] say?',
    });
    expect(answer.status).toBe('error');
    return answer;
  }

  it('an unreachable provider, said after one attempt rather than after retries', async () => {
    await app.dispose();
    const closed = await startScriptedModelServer();
    const url = closed.url;
    await closed.stop();
    app = await startApp(`${url}/v1`);
    const answer = await failingAnswer();
    expect(answer.error).toBe(
      `Cannot reach the model server at ${url}/v1: nothing is listening there; is it running?`,
    );
  });

  it('an unreachable server that also embeds is said once: the embedding failure adds no line of its own', async () => {
    await app.dispose();
    const closed = await startScriptedModelServer();
    const url = closed.url;
    await closed.stop();
    // A rule chosen by meaning: the message asks the embedding server before the model.
    mkdirSync(join(workspace.vault, '_kasten', 'rules'), { recursive: true });
    writeFileSync(
      join(workspace.vault, '_kasten', 'rules', 'Gardening advice.md'),
      '---\ninclude: agent\ndescription: Advice on gardening and compost\n---\nSuggest compost first.\n',
    );
    app = await startIndexedApp(workspace.dataDir, workspace.vault, {
      ...modelOptions(`${url}/v1`),
      embeddings: {
        enabled: true,
        provider: 'openai-compatible',
        baseUrl: `${url}/v1`,
        model: 'scripted-embedder',
        apiKeyEnv: null,
      },
    });
    const answer = await failingAnswer();
    expect(answer.error).toBe(
      `Cannot reach the model server at ${url}/v1: nothing is listening there; is it running?`,
    );
    // The request did record that meaning could not be judged, but the message shows the error alone.
    expect(answer.requests.flatMap((request) => request.notices)).toEqual([
      'Rules, tools and pinned passages were matched to the message by words. The embedding server is not reachable.',
    ]);
    expect(contextNotices(answer)).toEqual([]);
  });

  it('a rejected key (401)', async () => {
    server.requireApiKey('another-key');
    const answer = await failingAnswer();
    expect(answer.error).toMatch(/rejected the API key \(401\).*KASTEN_TEST_KEY/);
  });

  it('rate limiting (429) is retried a bounded number of times, honouring retry-after', async () => {
    server.script(() => ({
      fault: 'status',
      status: 429,
      retryAfterSeconds: 0,
      body: { error: { message: 'slow down' } },
    }));
    const answer = await failingAnswer();
    expect(answer.error).toMatch(/rate-limiting requests \(429\) \(tried 3 times\): slow down/);
    expect(server.chatRequests).toHaveLength(3);
  });

  it('a server error (500)', async () => {
    server.script(() => ({ fault: 'status', status: 500, body: { error: { message: 'model crashed' } } }));
    const answer = await failingAnswer();
    expect(answer.error).toMatch(/failed with 500.*model crashed/);
  });

  it('a stream cut mid-way keeps the partial text', async () => {
    server.script(() => ({ fault: 'cut', text: 'The first half of an answer' }));
    const answer = await failingAnswer();
    expect(answer.error).toMatch(/cut off|dropped/);
    expect(messageText(answer)).toContain('The first half');
  });

  it('malformed tool-call JSON goes back to the model as a tool error', async () => {
    server.script([
      { toolCalls: [{ name: 'read_note', arguments: '{"note": ' }] },
      { text: 'Sorry, retrying failed.' },
    ]);
    const answer = await ask('Read something.');
    expect(answer.status).toBe('complete');
    const call = answer.parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({
      ok: false,
      output: expect.stringMatching(/arguments for read_note could not be used/),
    });
    expect(JSON.stringify(server.chatRequests[1]!.messages)).toContain('could not be used');
  });

  it('an unknown tool name goes back to the model as a tool error', async () => {
    server.script([{ toolCalls: [{ name: 'delete_vault', arguments: {} }] }, { text: 'Done.' }]);
    const answer = await ask('Do it.');
    expect(answer.parts.find((part) => part.type === 'tool-call')).toMatchObject({
      ok: false,
      output: 'There is no tool named "delete_vault".',
    });
  });

  it('a model that loops on tools stops at the step limit', async () => {
    server.script(() => ({ toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }] }));
    const answer = await failingAnswer();
    expect(answer.error).toMatch(/stopped after 8 steps/);
    expect(server.chatRequests).toHaveLength(8);
  });

  it('retry answers the same question again', async () => {
    // The first call and its two automatic retries fail; the user's Retry gets through.
    server.script((_request, index) =>
      index < 3 ? { fault: 'status', status: 500 } : { text: 'Now it works.' },
    );
    const failed = await failingAnswer();
    const retried = await (await app.chat.retry(failed.sessionId)).done;
    expect(retried.status).toBe('complete');
    const session = app.chat.session(failed.sessionId);
    expect(session.messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'error'],
      ['assistant', 'complete'],
    ]);
  });
});

describe('sessions', () => {
  it('stop keeps the partial answer, marked stopped', async () => {
    server.script([{ text: 'word '.repeat(400), chunkSize: 5, delayMs: 5 }]);
    const turn = await app.chat.send({ text: 'Tell me a long story.' });
    let streamed = 0;
    await new Promise<void>((resolve) => {
      const off = app.events.subscribe((channel, payload) => {
        if (channel === 'chat:message') streamed = messageText(payload as ChatMessage).length;
        if (channel === 'chat:delta') streamed += appendedText(payload as MessageDelta);
        if (streamed > 50) {
          off();
          resolve();
        }
      });
    });
    app.chat.stop(turn.session.id);
    const answer = await turn.done;
    expect(answer.status).toBe('stopped');
    const saved = app.chat.session(turn.session.id).messages[1]!;
    expect(messageText(saved).length).toBeGreaterThan(50);
    expect(messageText(saved).length).toBeLessThan(2000);
  });

  it('survive a restart, can be searched, renamed, deleted and restored', async () => {
    server.script([{ text: 'Tomatoes need sun.' }]);
    const answer = await ask('What do tomatoes need?');
    await app.dispose();
    app = await startApp();
    const [listed] = app.chat.list();
    expect(listed).toMatchObject({ id: answer.sessionId, title: 'What do tomatoes need?', messageCount: 2 });
    expect(messageText(app.chat.session(answer.sessionId).messages[1]!)).toBe('Tomatoes need sun.');
    expect(app.chat.list('sun')).toHaveLength(1);
    expect(app.chat.list('cucumber')).toHaveLength(0);
    app.chat.rename(answer.sessionId, 'Garden');
    expect(app.chat.list()[0]!.title).toBe('Garden');
    app.chat.delete(answer.sessionId);
    expect(app.chat.list()).toEqual([]);
    app.chat.restore(answer.sessionId);
    expect(app.chat.list()).toHaveLength(1);
  });
});
