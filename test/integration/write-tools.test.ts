import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage, ToolCallPart } from '../../src/shared/chat-domain';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { nextPending, snapshot, startWritingApp, toolCalls } from '../support/write-approvals';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startWritingApp(workspace, server);
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

const note = (path: string) => readFileSync(join(workspace.vault, path), 'utf8');
const decide = (message: ChatMessage, call: ToolCallPart, approved: boolean) =>
  app.handlers['chat:approve']({ sessionId: message.sessionId, callId: call.id, approved });

describe('create_note', () => {
  it('approved, writes exactly the content shown, tells the model, and the index finds the note', async () => {
    const content = '# Compost\n\nKitchen scraps and autumn leaves turn into humus.\n';
    server.script([
      { toolCalls: [{ name: 'create_note', arguments: { path: 'Garden/Compost.md', content } }] },
      { text: 'Created it.' },
    ]);
    const pending = nextPending(app);
    // Saved with its parts by the time it is shown: a reload, or another window, shows the card.
    const savedWhenShown = new Promise<string | undefined>((resolve) => {
      const off = app.events.subscribe((channel, payload) => {
        const shown = payload as ChatMessage;
        if (channel !== 'chat:message' || !toolCalls(shown).some((part) => part.approval)) return;
        off();
        const stored = app.chat.session(shown.sessionId).messages.find((entry) => entry.id === shown.id);
        resolve(toolCalls(stored!)[0]?.approval?.state);
      });
    });
    const turn = await app.chat.send({ text: 'Make a note about compost.' });
    const { message, call } = await pending;
    expect(await savedWhenShown).toBe('pending');

    expect(call.approval).toEqual({
      change: { kind: 'create', path: 'Garden/Compost.md', content },
      state: 'pending',
    });
    // Saved with its parts while it waits: a reload shows the change.
    const saved = toolCalls(app.chat.session(message.sessionId).messages[1]!)[0]!;
    expect(saved.approval?.state).toBe('pending');
    expect(snapshot(workspace.vault)).not.toHaveProperty(['Garden/Compost.md']);

    await decide(message, call, true);
    const answer = await turn.done;

    expect(answer.status).toBe('complete');
    expect(readFileSync(join(workspace.vault, 'Garden/Compost.md'))).toEqual(Buffer.from(content));
    const [done] = toolCalls(answer);
    expect(done).toMatchObject({
      ok: true,
      output: 'The user approved: created "Garden/Compost.md".',
      approval: { state: 'approved' },
    });
    expect(JSON.stringify(server.chatRequests[1]!.messages)).toContain('The user approved: created');
    const hits = await app.handlers['search:notes']({ query: 'humus' });
    expect(hits.map((hit) => hit.path)).toEqual(['Garden/Compost.md']);
    expect(app.vault.tree().vault?.noteCount).toBe(4);
  });

  it('rejected, or stopped while waiting, leaves the vault byte-identical and tells the model', async () => {
    const before = snapshot(workspace.vault);
    server.script([
      {
        toolCalls: [
          { name: 'create_note', arguments: { path: 'New.md', content: '# New\n' } },
          { name: 'append_to_note', arguments: { note: 'Gardening', content: 'Basil likes warmth.' } },
        ],
      },
      { text: 'Understood.' },
      { toolCalls: [{ name: 'create_note', arguments: { path: 'Other.md', content: '# Other\n' } }] },
    ]);
    let pending = nextPending(app);
    const turn = await app.chat.send({ text: 'Write two things.' });
    const first = await pending;
    pending = nextPending(app, first.call.id);
    await decide(first.message, first.call, false);
    const second = await pending;
    expect(second.call.approval?.change).toMatchObject({ kind: 'append', path: 'Gardening.md' });
    await decide(second.message, second.call, false);
    const answer = await turn.done;

    expect(answer.status).toBe('complete');
    expect(toolCalls(answer).map((call) => [call.output, call.approval?.state])).toEqual([
      ['The user rejected the change; nothing was written.', 'rejected'],
      ['The user rejected the change; nothing was written.', 'rejected'],
    ]);

    pending = nextPending(app);
    const stopped = await app.chat.send({ text: 'One more.', sessionId: answer.sessionId });
    await pending;
    app.chat.stop(answer.sessionId);
    const end = await stopped.done;
    expect(end.status).toBe('stopped');
    expect(toolCalls(end)[0]).toMatchObject({
      output: 'The user stopped the answer instead of approving the change; nothing was written.',
      approval: { state: 'rejected' },
    });
    expect(snapshot(workspace.vault)).toEqual(before);
  });

  it('refuses an existing path (in any case), .., a symlinked folder leading out, an absolute path and bad names', async () => {
    const outside = join(workspace.base, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(workspace.vault, 'linked'));
    const before = { vault: snapshot(workspace.vault), outside: snapshot(outside) };
    const paths = [
      'Gardening.md',
      'gardening.MD',
      '../outside.md',
      'linked/escape.md',
      join(outside, 'absolute.md'),
      'CON.md',
      'What? Why.md',
      '.obsidian/hidden.md',
      'notes.txt',
    ];
    server.script([
      { toolCalls: paths.map((path) => ({ name: 'create_note', arguments: { path, content: 'x' } })) },
      { text: 'None of them worked.' },
    ]);
    const events: string[] = [];
    app.events.subscribe((channel, payload) => {
      const calls = channel === 'chat:message' ? toolCalls(payload as ChatMessage) : [];
      if (calls.some((call) => call.approval)) events.push('shown');
    });
    const answer = await (await app.chat.send({ text: 'Create these.' })).done;

    const outputs = toolCalls(answer).map((call) => {
      expect(call.ok).toBe(false);
      expect(call.approval).toBeUndefined();
      return call.output;
    });
    expect(outputs).toEqual([
      expect.stringContaining('"Gardening.md" already exists; create_note never overwrites'),
      expect.stringContaining('"gardening.MD" already exists as "Gardening.md"'),
      expect.stringContaining('points outside the vault'),
      expect.stringContaining('"linked" is a symlink leading outside the vault'),
      expect.stringContaining('is an absolute path'),
      expect.stringContaining('is a device name on Windows'),
      expect.stringContaining('contains "?", which Windows or macOS does not allow'),
      expect.stringContaining('which Kasten ignores'),
      expect.stringContaining('is not a Markdown note'),
    ]);
    expect(events).toEqual([]);
    expect({ vault: snapshot(workspace.vault), outside: snapshot(outside) }).toEqual(before);
  });
});

describe('append_to_note', () => {
  it("adds the lines at the end of a heading's section and nowhere else", async () => {
    const original = note('Zettelkasten method.md');
    server.script([
      {
        toolCalls: [
          {
            name: 'append_to_note',
            arguments: { note: 'ZK', heading: 'Links', content: '- Backlinks show where a note is used.\n' },
          },
        ],
      },
      { text: 'Added.' },
    ]);
    const pending = nextPending(app);
    const turn = await app.chat.send({ text: 'Add a line about backlinks.' });
    const { message, call } = await pending;
    const lastLinksLine = original.split('\n').findIndex((line) => line.startsWith('Links between'));

    expect(call.approval?.change).toEqual({
      kind: 'append',
      path: 'Zettelkasten method.md',
      heading: 'Links',
      added: ['', '- Backlinks show where a note is used.'],
      line: lastLinksLine + 2,
      before: ['## Links', '', original.split('\n')[lastLinksLine]],
      after: [''],
    });
    await decide(message, call, true);
    const answer = await turn.done;

    expect(toolCalls(answer)[0]!.output).toBe(
      'The user approved: appended 1 line to "Zettelkasten method.md" at the end of the section "Links".',
    );
    expect(note('Zettelkasten method.md')).toBe(
      original.replace(
        'another card it builds on.\n\n## Index',
        'another card it builds on.\n\n- Backlinks show where a note is used.\n\n## Index',
      ),
    );
    const hits = await app.handlers['search:notes']({ query: 'backlinks' });
    expect(hits.map((hit) => hit.path)).toContain('Zettelkasten method.md');
  });

  it('keeps CRLF line ends and adds at the end of a note without a final line break', async () => {
    writeFileSync(join(workspace.vault, 'Windows.md'), '# Windows\r\n\r\nLast line');
    server.script([
      {
        toolCalls: [{ name: 'append_to_note', arguments: { note: 'Windows.md', content: 'One\nTwo' } }],
      },
      { text: 'Done.' },
    ]);
    const pending = nextPending(app);
    const turn = await app.chat.send({ text: 'Append.' });
    const { message, call } = await pending;
    await decide(message, call, true);
    await turn.done;
    expect(note('Windows.md')).toBe('# Windows\r\n\r\nLast line\r\n\r\nOne\r\nTwo\r\n');
  });
});

describe('a note changed on disk between the card and Approve', () => {
  it.each([
    ['append_to_note', { note: 'Gardening', content: 'Basil.' }],
    ['edit_note', { note: 'Gardening', passage: 'sun and water', replacement: 'sun, water and patience' }],
  ])('%s refuses it once approved, and the note keeps the change made on disk', async (name, args) => {
    server.script([{ toolCalls: [{ name, arguments: args }] }, { text: 'It changed.' }]);
    const pending = nextPending(app);
    const turn = await app.chat.send({ text: 'Change Gardening.' });
    const { message, call } = await pending;
    const edited = '# Gardening\n\nTomatoes need sun and water, and a stake.\n';
    writeFileSync(join(workspace.vault, 'Gardening.md'), edited);
    await decide(message, call, true);
    const answer = await turn.done;

    expect(toolCalls(answer)[0]).toMatchObject({
      ok: false,
      approval: { state: 'failed' },
      output: expect.stringContaining('"Gardening.md" changed on disk after the change was shown'),
    });
    expect(note('Gardening.md')).toBe(edited);
  });
});

describe('write permissions', () => {
  it('sends no write tool schemas until writes are allowed in the vault, and refuses calls then', async () => {
    await app.handlers['writes:configure']({ enabled: false });
    const before = snapshot(workspace.vault);
    const offOff = await app.context.status(undefined, '');
    server.script([
      { toolCalls: [{ name: 'create_note', arguments: { path: 'Sneaky.md', content: 'x' } }] },
      { text: 'It was refused.' },
    ]);
    const answer = await (await app.chat.send({ text: 'Write something.' })).done;

    const names = (request: { tools?: unknown[] }) =>
      (request.tools ?? []).map((tool) => JSON.stringify(tool).match(/"name":"(\w+)"/)?.[1]);
    expect(names(server.chatRequests[0]!)).not.toContain('create_note');
    expect(toolCalls(answer)[0]).toMatchObject({
      ok: false,
      output: expect.stringContaining('Writing is turned off for this vault'),
    });
    expect(snapshot(workspace.vault)).toEqual(before);

    expect(await app.handlers['writes:configure']({ enabled: true })).toEqual({
      vault: workspace.vault,
      enabled: true,
    });
    const on = await app.context.status(undefined, '');
    const tools = (status: typeof on) => status.parts.find((part) => part.part === 'tools')?.tokens ?? 0;
    expect(tools(on)).toBeGreaterThan(tools(offOff));
    server.script([{ text: 'Fine.' }]);
    await (
      await app.chat.send({ text: 'Hello.' })
    ).done;
    expect(names(server.chatRequests.at(-1)!)).toEqual(
      expect.arrayContaining(['create_note', 'append_to_note']),
    );
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages[0])).toContain('create_note');
  });
});
