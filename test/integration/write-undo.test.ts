import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage, ToolCallPart } from '../../src/shared/chat-domain';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { nextPending, snapshot, startWritingApp, toolCalls } from '../support/write-approvals';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  // A note with CRLF line ends and a byte order mark: undo must give these bytes back exactly.
  writeFileSync(
    join(workspace.vault, 'Windows.md'),
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Windows\r\n\r\nOld words here.\r\n')]),
  );
  server = await startScriptedModelServer();
  app = await startWritingApp(workspace, server);
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

const path = (name: string) => join(workspace.vault, name);
const compost = '# Compost\n\nKitchen scraps turn into humus.\n';

/** The answer to `question`, its first `changes` proposed changes each approved as it is shown. */
async function approvedAnswer(question: string, changes: number): Promise<ChatMessage> {
  let pending = nextPending(app);
  const turn = await app.chat.send({ text: question });
  for (let index = 0; index < changes; index++) {
    const { message, call } = await pending;
    pending = nextPending(app, call.id);
    await app.handlers['chat:approve']({ sessionId: message.sessionId, callId: call.id, approved: true });
  }
  return turn.done;
}

/** One answer that creates a note, appends to one and edits another, each approved. */
async function threeApprovedWrites(): Promise<ChatMessage> {
  server.script([
    {
      toolCalls: [
        { name: 'create_note', arguments: { path: 'Compost.md', content: compost } },
        { name: 'append_to_note', arguments: { note: 'Gardening', content: 'Basil likes warmth.' } },
        { name: 'edit_note', arguments: { note: 'Windows', passage: 'Old words', replacement: 'New words' } },
      ],
    },
    { text: 'Three changes.' },
  ]);
  const answer = await approvedAnswer('Write about compost, basil and Windows.', 3);
  expect(toolCalls(answer).map((call) => call.approval?.state)).toEqual(['approved', 'approved', 'approved']);
  return answer;
}

const undoCall = (answer: ChatMessage, call: ToolCallPart) =>
  app.handlers['writes:undo']({ sessionId: answer.sessionId, messageId: answer.id, callId: call.id });

describe('undo', () => {
  it('restores every note byte for byte, marks the cards undone and tells the model in the next request', async () => {
    const before = snapshot(workspace.vault);
    const answer = await threeApprovedWrites();
    expect(readFileSync(path('Windows.md')).toString('utf8')).toBe(
      '\uFEFF# Windows\r\n\r\nNew words here.\r\n',
    );
    const announced: ChatMessage[] = [];
    app.events.subscribe((channel, payload) => {
      if (channel === 'chat:message') announced.push(payload as ChatMessage);
    });

    const outcomes = [];
    for (const call of toolCalls(answer).reverse()) outcomes.push(...(await undoCall(answer, call)));

    expect(outcomes).toEqual([
      {
        kind: 'edit',
        path: 'Windows.md',
        undone: true,
        message: 'Undone: "Windows.md" holds again, byte for byte, what it held before.',
      },
      {
        kind: 'append',
        path: 'Gardening.md',
        undone: true,
        message: 'Undone: "Gardening.md" holds again, byte for byte, what it held before.',
      },
      {
        kind: 'create',
        path: 'Compost.md',
        undone: true,
        message: 'Undone: "Compost.md" was removed; it did not exist before.',
      },
    ]);
    expect(snapshot(workspace.vault)).toEqual(before);
    expect(existsSync(path('Compost.md'))).toBe(false);
    expect(toolCalls(announced.at(-1)!).map((call) => call.approval?.state)).toEqual([
      'undone',
      'undone',
      'undone',
    ]);
    const session = app.chat.session(answer.sessionId);
    expect(toolCalls(session.messages[1]!)[0]!.output).toBe(
      'The user approved: created "Compost.md". Later the user undid this change: "Compost.md" was removed; it did not exist before.',
    );
    expect(await app.handlers['search:notes']({ query: 'humus' })).toEqual([]);

    // Undoing again says so; the chat's next request tells the model what was taken back.
    expect((await undoCall(answer, toolCalls(answer)[0]!))[0]).toMatchObject({
      undone: false,
      message: 'This change to "Compost.md" was already undone.',
    });
    server.script([{ text: 'Noted.' }]);
    await (
      await app.chat.send({ sessionId: answer.sessionId, text: 'Thanks.' })
    ).done;
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain(
      'Later the user undid this change',
    );
  });

  it('refuses in words to undo a change to a note edited since, and keeps the edit', async () => {
    const answer = await threeApprovedWrites();
    const edited = '# Gardening\n\nTomatoes need sun and water.\n\nBasil likes warmth. And a sunny sill.\n';
    writeFileSync(path('Gardening.md'), edited);
    writeFileSync(path('Compost.md'), `${compost}\nTurn it monthly.\n`);

    const [append, create] = [toolCalls(answer)[1]!, toolCalls(answer)[0]!];
    expect(await undoCall(answer, append)).toEqual([
      {
        kind: 'append',
        path: 'Gardening.md',
        undone: false,
        message:
          'Not undone: "Gardening.md" was changed after Kasten wrote it, so it was left as it is: undoing would lose those changes.',
      },
    ]);
    expect((await undoCall(answer, create))[0]!.message).toBe(
      'Not undone: "Compost.md" was changed after Kasten wrote it, so it was left as it is: undoing would lose those changes.',
    );
    expect(readFileSync(path('Gardening.md'), 'utf8')).toBe(edited);
    expect(readFileSync(path('Compost.md'), 'utf8')).toBe(`${compost}\nTurn it monthly.\n`);
    expect(toolCalls(app.chat.session(answer.sessionId).messages[1]!)[1]!.approval?.state).toBe('approved');
  });

  it('refuses to undo an earlier change while a later one to the same note stands', async () => {
    server.script([
      { toolCalls: [{ name: 'append_to_note', arguments: { note: 'Gardening', content: 'One.' } }] },
      { toolCalls: [{ name: 'append_to_note', arguments: { note: 'Gardening', content: 'Two.' } }] },
      { text: 'Both.' },
    ]);
    const answer = await approvedAnswer('Add two lines.', 2);
    expect((await undoCall(answer, toolCalls(answer)[0]!))[0]!.message).toBe(
      'Not undone: Kasten changed "Gardening.md" again later in this chat; undo that change first.',
    );
  });

  it('kasten undo <vault> --session ID takes back every change of the chat, exports too, newest first', async () => {
    const before = snapshot(workspace.vault);
    const answer = await threeApprovedWrites();
    const exported = await app.handlers['sessions:export']({ id: answer.sessionId });
    expect(existsSync(path(exported.path))).toBe(true);

    const { code, out } = await kasten(
      ...['undo', workspace.vault, '--session', answer.sessionId, '--data-dir', workspace.dataDir],
    );

    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      `Undone: "${exported.path}" was removed; it did not exist before.`,
      'Undone: "Windows.md" holds again, byte for byte, what it held before.',
      'Undone: "Gardening.md" holds again, byte for byte, what it held before.',
      'Undone: "Compost.md" was removed; it did not exist before.',
    ]);
    // The folder the export made stays; every note is as it was.
    const { ['Kasten chats']: folder, ...after } = snapshot(workspace.vault);
    expect(folder).toBe('folder');
    expect(after).toEqual(before);
    const again = await kasten(
      ...['undo', workspace.vault, '--session', answer.sessionId, '--data-dir', workspace.dataDir],
    );
    expect(again).toMatchObject({
      code: 0,
      out: 'Nothing to undo: this chat changed no note that is not undone yet.',
    });
  });

  it('shows undone changes as undone in the exported chat, and undoes an updated export to the one before', async () => {
    const answer = await threeApprovedWrites();
    await undoCall(answer, toolCalls(answer)[2]!);
    const first = await app.handlers['sessions:export']({ id: answer.sessionId });
    const text = readFileSync(path(first.path), 'utf8');
    expect(text).toContain('> - create_note Compost.md → written\n');
    expect(text).toContain('> - edit_note Windows → written, then undone\n');

    server.script([{ text: 'More.' }]);
    await (
      await app.chat.send({ sessionId: answer.sessionId, text: 'And?' })
    ).done;
    await app.handlers['sessions:export']({ id: answer.sessionId, update: true });
    expect(readFileSync(path(first.path), 'utf8')).not.toBe(text);
    const outcomes = await app.handlers['writes:undo']({ sessionId: answer.sessionId });

    // The update is undone first, back to the first export's bytes: only then can that one be
    // undone too, since an undo needs the note to hold exactly what Kasten wrote.
    expect(outcomes.slice(0, 2)).toEqual([
      {
        kind: 'export',
        path: first.path,
        undone: true,
        message: `Undone: "${first.path}" holds again, byte for byte, what it held before.`,
      },
      {
        kind: 'export',
        path: first.path,
        undone: true,
        message: `Undone: "${first.path}" was removed; it did not exist before.`,
      },
    ]);
    expect(outcomes.every((outcome) => outcome.undone)).toBe(true);
    // With its export undone, the chat's next export is a new note, not an update of one that is gone.
    expect(await app.handlers['sessions:export']({ id: answer.sessionId, update: true })).toEqual({
      path: first.path,
      updated: false,
    });
  });
});
