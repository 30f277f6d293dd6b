import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import {
  startScriptedModelServer,
  type ChatRequest,
  type ScriptedModelServer,
} from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

const rules = '_kasten/rules';

const summaryText = [
  '## Goal',
  'SUMMARY-MARK: learn about the notes.',
  '## Decisions',
  'None.',
  '## Facts',
  'Earlier answers were short.',
  '## Open questions',
  'None.',
  '## Next steps',
  'Keep asking.',
].join('\n');

function writeNote(path: string, content: string): void {
  mkdirSync(join(workspace.vault, path, '..'), { recursive: true });
  writeFileSync(join(workspace.vault, path), content);
}

/** The app on the scripted server; `watch` turns the vault watcher on, as the desktop app runs it. */
async function start(window?: number, { watch = false } = {}): Promise<void> {
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    watch,
    model: {
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-model',
      contextWindow: window ?? null,
    },
  });
}

async function ask(
  text: string,
  sessionId?: string,
  more: { attachments?: string[] } = {},
): Promise<ChatMessage> {
  const turn = await app.chat.send({ text, sessionId, ...more });
  return turn.done;
}

/** What the model server was sent in one request: the system prompt and every message, as text. */
function sent(request: ChatRequest): string {
  return JSON.stringify(request.messages);
}

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  writeNote(`${rules}/Cite sources.md`, '---\ninclude: always\n---\nALWAYS-RULE: cite every note you use.\n');
  writeNote(`${rules}/Pirate voice.md`, '---\ninclude: manual\n---\nMANUAL-RULE: answer like a pirate.\n');
  writeNote(
    `${rules}/Gardening advice.md`,
    '---\ninclude: agent\ndescription: Advice on gardening, compost, soil and growing tomatoes\n---\nAGENT-RULE: suggest compost first.\n',
  );
  writeNote(`${rules}/Broken.md`, '---\ninclude: [always\n---\nBROKEN-RULE\n');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await app?.dispose();
  await server.stop();
  workspace.remove();
});

describe('rules', () => {
  it('an always rule is in every request, a manual one only once added, an agent one only for messages it matches, with its score', async () => {
    await start();
    server.script(() => ({ text: 'Fine.' }));
    const first = await ask('What is the Zettelkasten method?');
    let request = server.chatRequests.at(-1)!;
    expect(sent(request)).toContain('ALWAYS-RULE');
    expect(sent(request)).not.toContain('MANUAL-RULE');
    expect(sent(request)).not.toContain('AGENT-RULE');
    const left = first.requests[0]!.dropped.find((item) => item.label === 'Gardening advice')!;
    expect(left).toMatchObject({ kind: 'rule', include: 'agent' });
    expect(left.score).toBeLessThan(0.1);
    expect(left.reason).toMatch(/score 0\.\d\d/);

    await app.handlers['items:set']({
      sessionId: first.sessionId,
      kind: 'rule',
      key: 'Pirate voice',
      on: true,
    });
    const second = await ask('How do I grow tomatoes with compost in poor soil?', first.sessionId);
    request = server.chatRequests.at(-1)!;
    expect(sent(request)).toContain('ALWAYS-RULE');
    expect(sent(request)).toContain('MANUAL-RULE');
    expect(sent(request)).toContain('AGENT-RULE');
    const chosen = second.requests[0]!.items.find((item) => item.label === 'Gardening advice')!;
    expect(chosen).toMatchObject({ kind: 'rule', include: 'agent' });
    expect(chosen.score).toBeGreaterThan(0.3);
    expect(second.requests[0]!.items.find((item) => item.label === 'Pirate voice')).toMatchObject({
      include: 'manual',
    });
    // A rule whose frontmatter cannot be read is manual, with a warning, and never sent unasked.
    expect(sent(request)).not.toContain('BROKEN-RULE');
    const listed = await app.handlers['rules:list'](undefined);
    expect(listed.find((rule) => rule.name === 'Broken')).toMatchObject({
      include: 'manual',
      warning: expect.stringMatching(/not valid YAML/),
    });
  });

  it('are matched by meaning when an embedding model is configured, and say so', async () => {
    app = await startIndexedApp(workspace.dataDir, workspace.vault, {
      model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
      embeddings: {
        enabled: true,
        provider: 'openai-compatible',
        baseUrl: `${server.url}/v1`,
        model: 'scripted-embedder',
        apiKeyEnv: null,
      },
    });
    server.script(() => ({ text: 'Fine.' }));
    const about = await ask('Advice on gardening: compost, soil and growing tomatoes?');
    const chosen = about.requests[0]!.items.find((item) => item.label === 'Gardening advice')!;
    expect(chosen).toMatchObject({ kind: 'rule', include: 'agent' });
    expect(chosen.score).toBeGreaterThanOrEqual(0.5);
    const other = await ask('Which trains leave at midnight?');
    const left = other.requests[0]!.dropped.find((item) => item.label === 'Gardening advice')!;
    expect(left.reason).toMatch(/matched by meaning/);
    // The question went to the embedding server as a query.
    const embedded = server.requests.filter((request) => request.path.endsWith('/embeddings'));
    expect(JSON.stringify(embedded.map((request) => request.body))).toContain('trains leave at midnight');
  });

  it('an agent prompt set to replace the system prompt stands in for Kasten’s instructions', async () => {
    await start();
    server.script(() => ({ text: 'Arr.' }));
    const first = await ask('Hello.');
    await app.handlers['items:prompt']({
      sessionId: first.sessionId,
      prompt: { text: 'REPLACEMENT: you are a terse librarian.', placement: 'system' },
    });
    await ask('Again.', first.sessionId);
    const system = JSON.stringify(server.chatRequests.at(-1)!.messages[0]);
    expect(system).toContain('REPLACEMENT: you are a terse librarian.');
    expect(system).not.toContain('You are Kasten');
    expect(system).toContain('Today is');
    expect(system).toContain('ALWAYS-RULE');
    // Not also sent as a message.
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages.slice(1))).not.toContain('REPLACEMENT');
  });

  it('a rule edited on disk is read again for the next request', async () => {
    await start(undefined, { watch: true });
    server.script(() => ({ text: 'Fine.' }));
    await ask('First question.');
    const path = `${rules}/Cite sources.md`;
    const indexed = new Promise<void>((resolve) => {
      const stop = app.events.on('index:changed', (change) => {
        if (!change.paths.includes(path)) return;
        stop();
        resolve();
      });
    });
    writeNote(path, '---\ninclude: always\n---\nEDITED-RULE: cite.\n');
    // The watcher sees the edit and the index applies it; nothing else is told about it.
    await indexed;
    await ask('Second question.');
    expect(sent(server.chatRequests.at(-1)!)).toContain('EDITED-RULE');
    expect(sent(server.chatRequests.at(-1)!)).not.toContain('ALWAYS-RULE');
  });
});

describe('the budget', () => {
  it('items never push a request past the usable window: rules past their share are left out, each said', async () => {
    for (let index = 0; index < 60; index++) {
      writeNote(
        `${rules}/Many ${index}.md`,
        `---\ninclude: always\n---\n${`Rule ${index} says things. `.repeat(60)}\n`,
      );
    }
    await start(4096);
    server.script(() => ({ text: 'Fine.' }));
    const answer = await ask('Anything?');
    const request = answer.requests[0]!;
    expect(request.overflow).toBeUndefined();
    expect(request.estimated).toBeLessThanOrEqual(request.usable);
    const over = request.dropped.filter((item) => item.kind === 'rule' && /over budget/.test(item.reason));
    expect(over.length).toBeGreaterThan(30);
    expect(answer.status).toBe('complete');
  });

  it('a rule of 1 MB is cut to its head and tail within the share, and every request still fits', async () => {
    const paragraph = 'This rule goes on about citation style, tone and structure at great length. ';
    writeNote(
      `${rules}/Huge.md`,
      `---\ninclude: always\n---\nHUGE-HEAD ${paragraph.repeat(14_000)} HUGE-TAIL\n`,
    );
    await start(8192);
    server.script(() => ({ text: 'Fine.' }));
    const first = await ask('One?');
    const second = await ask('Two?', first.sessionId);
    for (const answer of [first, second]) {
      const request = answer.requests[0]!;
      expect(request.items.find((item) => item.label === 'Huge')).toMatchObject({
        kind: 'rule',
        form: 'cut',
      });
      expect(request.estimated).toBeLessThanOrEqual(request.usable);
    }
    const sent = JSON.stringify(server.chatRequests.at(-1)!.messages);
    expect(sent).toContain('HUGE-HEAD');
    expect(sent).toContain('HUGE-TAIL');
    expect(sent.length).toBeLessThan(100_000);
  });

  it('a pinned note too big for 60% of usable arrives as its passages most relevant to the question', async () => {
    const sections = Array.from({ length: 30 }, (_, index) =>
      index === 17
        ? '## Beekeeping\n\nBEES-PASSAGE: hives need a queen, brood frames and a calm beekeeper.\n'
        : `## Chapter ${index}\n\n${`Filler paragraph ${index} about nothing in particular. `.repeat(25)}\n`,
    );
    writeNote('Handbook.md', `# Handbook\n\n${sections.join('\n')}`);
    await start(4096);
    server.script(() => ({ text: 'Fine.' }));
    const first = await ask('Hello.');
    await app.handlers['items:set']({
      sessionId: first.sessionId,
      kind: 'pinned',
      key: 'Handbook.md',
      on: true,
    });
    const answer = await ask('What do hives need, and what about the queen?', first.sessionId);
    const item = answer.requests[0]!.items.find((entry) => entry.kind === 'pinned')!;
    expect(item).toMatchObject({ path: 'Handbook.md', form: 'chunks', include: 'manual' });
    expect(sent(server.chatRequests.at(-1)!)).toContain('BEES-PASSAGE');
    expect(sent(server.chatRequests.at(-1)!)).not.toContain('Filler paragraph 3 ');
    expect(answer.requests[0]!.estimated).toBeLessThanOrEqual(answer.requests[0]!.usable);
  });

  it('a pinned note follows a rename, and says so when it is gone', async () => {
    await start();
    server.script(() => ({ text: 'Fine.' }));
    const first = await ask('Hello.');
    await app.handlers['items:set']({
      sessionId: first.sessionId,
      kind: 'pinned',
      key: 'Gardening.md',
      on: true,
    });
    await expect(
      app.handlers['items:set']({ sessionId: first.sessionId, kind: 'pinned', key: 'Nope.md', on: true }),
    ).rejects.toThrow(/no note/);
    let items = await app.handlers['items:session']({ sessionId: first.sessionId });
    expect(items.pinned).toMatchObject([{ path: 'Gardening.md', state: 'present' }]);

    renameSync(join(workspace.vault, 'Gardening.md'), join(workspace.vault, 'Garden notes.md'));
    const now = Date.now();
    await app.index.applyChanges([
      { type: 'unlink', path: 'Gardening.md', at: now },
      { type: 'add', path: 'Garden notes.md', at: now },
    ]);
    items = await app.handlers['items:session']({ sessionId: first.sessionId });
    expect(items.pinned).toMatchObject([
      { path: 'Garden notes.md', state: 'moved', previousPath: 'Gardening.md' },
    ]);
    await ask('Still pinned?', first.sessionId);
    expect(sent(server.chatRequests.at(-1)!)).toContain('Tomatoes need sun');

    rmSync(join(workspace.vault, 'Garden notes.md'));
    await app.index.applyChanges([{ type: 'unlink', path: 'Garden notes.md', at: Date.now() }]);
    items = await app.handlers['items:session']({ sessionId: first.sessionId });
    expect(items.pinned).toMatchObject([{ path: 'Garden notes.md', state: 'gone' }]);
    const gone = await ask('And now?', first.sessionId);
    expect(gone.status).toBe('complete');
    expect(gone.requests[0]!.notices.join(' ')).toMatch(/pinned note “Gardening” is gone/);
  });
});

describe('the prompt', () => {
  it('is laid out as system, summary, history, agent prompt, pinned, attachment, question, references, tool steps, reminder', async () => {
    await start(4096);
    server.script(() => ({ text: 'Earlier answer about the notes. '.repeat(15) }));
    const first = await ask('EARLIER-QUESTION 1?');
    const sessionId = first.sessionId;
    for (let turn = 2; turn <= 6; turn++) await ask(`EARLIER-QUESTION ${turn}?`, sessionId);
    server.script(() => ({ text: summaryText }));
    const { compaction, notice } = await app.chat.compact(sessionId);
    expect(compaction, notice ?? '').not.toBeNull();
    await app.handlers['items:set']({ sessionId, kind: 'pinned', key: 'Gardening.md', on: true });
    await app.handlers['items:prompt']({
      sessionId,
      prompt: { text: 'AGENT-PROMPT: be brief.', placement: 'message' },
    });
    const file = await app.handlers['attachments:prepare']({
      name: 'notes.txt',
      data: Buffer.from('ATTACHED-FILE: a list of seeds.').toString('base64'),
    });
    server.script([
      { toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }] },
      { text: 'Done [1].' },
    ]);
    const answer = await ask('CURRENT-QUESTION about [[Atomic notes]]?', sessionId, {
      attachments: [file.token],
    });
    expect(answer.status).toBe('complete');
    const request = server.chatRequests.at(-1)!;
    const system = request.messages[0]!;
    expect(system.role).toBe('system');
    expect(JSON.stringify(system)).toContain('ALWAYS-RULE');
    expect(JSON.stringify(system)).toMatch(/Today is \w+day, \d+ \w+ \d{4}/);
    const text = sent(request);
    const marks = [
      'ALWAYS-RULE',
      'SUMMARY-MARK',
      'EARLIER-QUESTION 5',
      'EARLIER-QUESTION 6',
      'AGENT-PROMPT',
      'Tomatoes need sun',
      'ATTACHED-FILE',
      'CURRENT-QUESTION',
      // The linked note's document, then the tool call and its results.
      '\\"title\\":\\"Atomic notes\\"',
      'tool_calls',
      'Reminder: cite',
    ];
    const positions = marks.map((mark) => text.indexOf(mark));
    expect(
      positions.every((position) => position >= 0),
      JSON.stringify(positions),
    ).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // The reminder is the last thing sent, once.
    expect(text.split('Reminder: cite').length).toBe(2);
    expect(JSON.stringify(request.messages.at(-1))).toContain('<system-reminder>');
    // Guidance only for the tools offered: read_attachment is, writes are not.
    expect(JSON.stringify(system)).toContain('read_attachment');
    expect(JSON.stringify(system)).not.toContain('create_note');
  });
});

describe('attachments', () => {
  it('stay with their message; once too big for a later request they are a stub, and read_attachment reads them again', async () => {
    await start(4096);
    server.script(() => ({ text: 'Read it.' }));
    const paragraph = 'FILE-LINE about the seed catalogue and the planting calendar. ';
    const file = await app.handlers['attachments:prepare']({
      name: 'catalogue.txt',
      data: Buffer.from(`FILE-START ${paragraph.repeat(60)} FILE-END`).toString('base64'),
    });
    expect(file).toMatchObject({ name: 'catalogue.txt', kind: 'text', tokens: expect.any(Number) });
    const first = await ask('Here is my catalogue.', undefined, { attachments: [file.token] });
    expect(first.requests[0]!.items.find((item) => item.kind === 'attachment')).toMatchObject({
      label: 'catalogue.txt',
      form: 'whole',
    });
    const question = app.chat.session(first.sessionId).messages[0]!;
    expect(question.parts.find((part) => part.type === 'attachment')).toMatchObject({
      attachment: { name: 'catalogue.txt', kind: 'text' },
    });
    // A token is good for one message: sending it again says so.
    await expect(ask('Again?', first.sessionId, { attachments: [file.token] })).rejects.toThrow(
      /attach it again/,
    );

    // Later turns fill the window: the old file gives way to its stub, and the tool reads it back.
    server.script(() => ({ text: 'Long answer about planting. '.repeat(120) }));
    let sessionId = first.sessionId;
    for (let turn = 0; turn < 6; turn++) sessionId = (await ask(`More ${turn}?`, sessionId)).sessionId;
    const id = (question.parts.find((part) => part.type === 'attachment') as { attachment: { id: number } })
      .attachment.id;
    server.script([
      { toolCalls: [{ name: 'read_attachment', arguments: { id } }] },
      { text: 'It lists seeds.' },
    ]);
    const later = await ask('What was in the catalogue?', sessionId);
    expect(later.status, later.error ?? '').toBe('complete');
    const asked = server.chatRequests.at(-2)!;
    // The file is not in the request whole any more (stubbed, or its turn left out), but the model is
    // offered the tool, whose description names the chat's files.
    expect(JSON.stringify(asked.messages)).not.toContain('FILE-END');
    const tool = (asked.tools ?? []).find(
      (entry) => (entry as { function: { name: string } }).function.name === 'read_attachment',
    ) as { function: { description: string } } | undefined;
    expect(tool?.function.description).toContain(`${id}: "catalogue.txt"`);
    const call = later.parts.find((part) => part.type === 'tool-call')!;
    expect(call).toMatchObject({ name: 'read_attachment', ok: true });
    expect((call as { output: string }).output).toContain('FILE-END');
  });

  it('a file larger than an item may be is refused before sending, in words', async () => {
    await start(4096);
    const big = 'A long line of text that keeps going. '.repeat(2_000);
    await expect(
      app.handlers['attachments:prepare']({ name: 'big.txt', data: Buffer.from(big).toString('base64') }),
    ).rejects.toThrow(/“big\.txt” is about [\d,]+ tokens; one file may take at most [\d,]+/);
    await expect(
      app.handlers['attachments:prepare']({
        name: 'photo.txt',
        data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]).toString('base64'),
      }),
    ).rejects.toThrow(/not text/);
  });
});
