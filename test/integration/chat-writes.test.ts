import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { snapshot, startWritingApp, toolCalls } from '../support/write-approvals';

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

/** A chat with one answered message, so that it exists and can be set. */
async function newChat(): Promise<string> {
  server.script([{ text: 'Hello.' }]);
  const turn = await app.chat.send({ text: 'Hi.' });
  await turn.done;
  return turn.session.id;
}

describe('allow writes for this chat', () => {
  it('is "ask every time" by default, and once allowed a write is applied without a card and can be undone', async () => {
    const sessionId = await newChat();
    expect(await app.handlers['writes:chat']({ sessionId })).toEqual({
      sessionId,
      choice: 'ask',
      vaultEnabled: true,
    });
    expect((await app.handlers['writes:setChat']({ sessionId, choice: 'allow' })).choice).toBe('allow');
    const before = snapshot(workspace.vault);
    const content = '# Mulch\n\nStraw keeps the soil moist.\n';
    server.script([
      { toolCalls: [{ name: 'create_note', arguments: { path: 'Mulch.md', content } }] },
      { text: 'Done.' },
    ]);
    const shown: string[] = [];
    const off = app.events.subscribe((channel, payload) => {
      if (channel !== 'chat:message') return;
      for (const call of toolCalls(payload as Parameters<typeof toolCalls>[0]))
        if (call.approval) shown.push(call.approval.state);
    });
    const answer = await (await app.chat.send({ text: 'Note about mulch.', sessionId })).done;
    off();

    expect(answer.status).toBe('complete');
    expect(readFileSync(join(workspace.vault, 'Mulch.md'), 'utf8')).toBe(content);
    // Never shown waiting for a decision: the card says what was done.
    expect(shown).not.toContain('pending');
    const [call] = toolCalls(answer);
    expect(call).toMatchObject({
      ok: true,
      output: 'Written without asking (the user allows writes in this chat): created "Mulch.md".',
      approval: { state: 'approved', byChat: true },
    });
    expect(JSON.stringify(server.chatRequests.at(-1)!.messages)).toContain('Written without asking');

    const [outcome] = await app.handlers['writes:undo']({
      sessionId,
      messageId: answer.id,
      callId: call!.id,
    });
    expect(outcome).toMatchObject({ undone: true, path: 'Mulch.md' });
    expect(snapshot(workspace.vault)).toEqual(before);
  });

  it('another chat still asks, and with the vault switch off the allowed chat writes nothing', async () => {
    const allowed = await newChat();
    await app.handlers['writes:setChat']({ sessionId: allowed, choice: 'allow' });
    const other = await newChat();
    expect((await app.handlers['writes:chat']({ sessionId: other })).choice).toBe('ask');

    await app.handlers['writes:configure']({ enabled: false });
    expect(await app.handlers['writes:chat']({ sessionId: allowed })).toMatchObject({
      choice: 'allow',
      vaultEnabled: false,
    });
    const before = snapshot(workspace.vault);
    server.script([
      { toolCalls: [{ name: 'create_note', arguments: { path: 'Sneaky.md', content: 'x' } }] },
      { text: 'Refused.' },
    ]);
    const answer = await (await app.chat.send({ text: 'Write it.', sessionId: allowed })).done;
    expect(toolCalls(answer)[0]).toMatchObject({
      ok: false,
      output: expect.stringContaining('Writing is turned off for this vault'),
    });
    expect(snapshot(workspace.vault)).toEqual(before);
  });

  it('can be chosen before the chat starts: its first answer writes at once', async () => {
    const content = '# Compost\n\nLeaves rot down in a year.\n';
    server.script([
      { toolCalls: [{ name: 'create_note', arguments: { path: 'Compost.md', content } }] },
      { text: 'Done.' },
    ]);
    const turn = await app.chat.send({ text: 'Note about compost.', writes: 'allow' });
    expect((await app.handlers['writes:chat']({ sessionId: turn.session.id })).choice).toBe('allow');
    const answer = await turn.done;
    expect(toolCalls(answer)[0]).toMatchObject({ ok: true, approval: { state: 'approved', byChat: true } });
    expect(readFileSync(join(workspace.vault, 'Compost.md'), 'utf8')).toBe(content);

    // A chat started without a choice asks, as before.
    const plain = await newChat();
    expect((await app.handlers['writes:chat']({ sessionId: plain })).choice).toBe('ask');
  });

  it('refuses in words to set a chat that does not exist', async () => {
    await expect(app.handlers['writes:setChat']({ sessionId: 'nope', choice: 'allow' })).rejects.toThrow(
      'There is no chat session nope.',
    );
  });
});

describe('undo of an export from its notice', () => {
  it('takes the exported note away again, and says so when there is nothing left to undo', async () => {
    const sessionId = await newChat();
    const before = snapshot(workspace.vault);
    const exported = await app.handlers['sessions:export']({ id: sessionId });
    expect(snapshot(workspace.vault)).not.toEqual(before);
    const outcome = await app.handlers['writes:undoExport']({ sessionId, path: exported.path });
    expect(outcome).toMatchObject({ kind: 'export', undone: true });
    // The note is gone; the folder the export made stays, empty.
    expect(snapshot(workspace.vault)).toEqual({ ...before, 'Kasten chats': 'folder' });
    await expect(app.handlers['writes:undoExport']({ sessionId, path: exported.path })).rejects.toThrow(
      /no export of this chat/,
    );
  });
});
