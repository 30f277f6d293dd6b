import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatMessage, ToolCallPart } from '../../src/shared/chat-domain';
import { diffText } from '../../src/shared/chat/diff-text';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { nextPending, snapshot, startWritingApp, toolCalls } from '../support/write-approvals';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

/** Opens the vault, with these notes added first, and allows writes in it. */
async function open(notes: Record<string, Buffer | string> = {}) {
  for (const [path, bytes] of Object.entries(notes)) writeFileSync(join(workspace.vault, path), bytes);
  app = await startWritingApp(workspace, server);
}

const bytesOf = (path: string) => readFileSync(join(workspace.vault, path));
const decide = (message: ChatMessage, call: ToolCallPart, approved: boolean) =>
  app.handlers['chat:approve']({ sessionId: message.sessionId, callId: call.id, approved });

/** The model asks for one edit_note call, then answers; resolves with the call as shown, waiting. */
async function proposeEdit(args: Record<string, unknown>) {
  server.script([{ toolCalls: [{ name: 'edit_note', arguments: args }] }, { text: 'Done.' }]);
  const pending = nextPending(app);
  const turn = await app.chat.send({ text: 'Tighten that sentence.' });
  return { ...(await pending), turn };
}

describe('edit_note', () => {
  it('replaces exactly one passage; the BOM, frontmatter, CRLF line ends and every other byte stay', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const text = (middle: string) =>
      `---\r\ntags: [zk]\r\n---\r\n# Windows note\r\n\r\n${middle}\r\n\r\n## Later\r\n\r\nUntouched line.\r\n`;
    const original = Buffer.concat([bom, Buffer.from(text('Cards are small and\r\nlinked to each other.'))]);
    await open({ 'Windows note.md': original });

    const { message, call, turn } = await proposeEdit({
      note: 'Windows note',
      passage: 'small and\nlinked to each other.',
      replacement: 'atomic and\nlinked.',
    });
    expect(call.approval?.change).toMatchObject({
      kind: 'edit',
      path: 'Windows note.md',
      target: 'passage',
      section: 'Windows note',
      line: 4,
    });
    const change = call.approval!.change;
    if (change.kind !== 'edit') throw new Error('not an edit');
    expect(diffText(change.diff)).toBe(
      '# Windows note\n\nCards are [-small-]{+atomic+} and\nlinked[- to each other-].\n',
    );
    expect(bytesOf('Windows note.md')).toEqual(original);

    await decide(message, call, true);
    const answer = await turn.done;

    expect(bytesOf('Windows note.md')).toEqual(
      Buffer.concat([bom, Buffer.from(text('Cards are atomic and\r\nlinked.'))]),
    );
    expect(toolCalls(answer)[0]).toMatchObject({
      ok: true,
      output: 'The user approved: replaced the passage in "Windows note.md" in the section "Windows note".',
      approval: { state: 'approved' },
    });
    expect(JSON.stringify(server.chatRequests[1]!.messages)).toContain(
      'The user approved: replaced the passage',
    );
    const hits = await app.handlers['search:notes']({ query: 'atomic' });
    expect(hits.map((hit) => hit.path)).toContain('Windows note.md');
  });

  it("replaces the text of a heading's section, keeping the heading and the sections around it", async () => {
    await open();
    const original = bytesOf('Zettelkasten method.md').toString('utf8');
    const { message, call, turn } = await proposeEdit({
      note: 'ZK',
      heading: 'Index',
      replacement: 'An entry note lists the starting points and the main branches.',
    });
    expect(call.approval?.change).toMatchObject({ target: 'section', section: 'Index' });
    await decide(message, call, true);
    await turn.done;
    expect(bytesOf('Zettelkasten method.md').toString('utf8')).toBe(
      original.replace('starting points.\n', 'starting points and the main branches.\n'),
    );
  });

  it('keeps the bytes of a Latin-1 note and writes the new words in Latin-1', async () => {
    const latin1 = Buffer.from('# Caf\xe9\n\nLe caf\xe9 est tr\xe8s bon.\n', 'latin1');
    await open({ 'Cafe.md': latin1 });
    const { message, call, turn } = await proposeEdit({
      note: 'Cafe.md',
      passage: 'est tr\uFFFDs bon',
      replacement: 'est tr\uFFFDs fort, déjà',
    });
    await decide(message, call, true);
    await turn.done;
    expect(bytesOf('Cafe.md')).toEqual(
      Buffer.from('# Caf\xe9\n\nLe caf\xe9 est tr\xe8s fort, d\xe9j\xe0.\n', 'latin1'),
    );
  });

  it('refuses a passage found twice, naming both places, and one not there, showing the nearest text', async () => {
    await open({ 'Twice.md': '# Twice\n\nSee the box.\n\n## Again\n\nSee the box.\n' });
    const before = snapshot(workspace.vault);
    server.script([
      {
        toolCalls: [
          {
            name: 'edit_note',
            arguments: { note: 'Twice', passage: 'See the box.', replacement: 'See it.' },
          },
          { name: 'edit_note', arguments: { note: 'Twice', passage: 'see  the BOX', replacement: 'x' } },
          {
            name: 'edit_note',
            arguments: { note: 'Twice', passage: 'See the box.', replacement: 'See the box.' },
          },
        ],
      },
      { text: 'None of them.' },
    ]);
    const answer = await (await app.chat.send({ text: 'Edit Twice.' })).done;

    const calls = toolCalls(answer);
    expect(calls.map((call) => [call.ok, call.approval])).toEqual([
      [false, undefined],
      [false, undefined],
      [false, undefined],
    ]);
    expect(calls[0]!.output).toBe(
      'The passage occurs 2 times in "Twice.md": at line 3 (in the section "Twice") and line 7 (in the section "Again"). Nothing was changed; give more of the text around the one to change, so that the passage occurs once.',
    );
    expect(calls[1]!.output).toContain(
      'does not occur in "Twice.md", so nothing was changed. At line 3 (in the section "Twice") the note has it with other spacing or capitals: "See the box"',
    );
    expect(calls[2]!.output).toContain('The passage occurs 2 times');
    expect(snapshot(workspace.vault)).toEqual(before);
  });

  it('refuses new text identical to the passage', async () => {
    await open();
    server.script([
      {
        toolCalls: [
          { name: 'edit_note', arguments: { note: 'Gardening', passage: 'sun', replacement: 'sun' } },
        ],
      },
      { text: 'Nothing to do.' },
    ]);
    const answer = await (await app.chat.send({ text: 'Edit.' })).done;
    expect(toolCalls(answer)[0]).toMatchObject({
      ok: false,
      output:
        'The new text is the same as the text it would replace in "Gardening.md"; nothing would change.',
    });
  });
});
