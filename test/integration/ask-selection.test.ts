import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { call } from '../../src/main/hosts/cli-call';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { startScriptedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';

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

const passage = 'Niklas Luhmann kept tens of thousands of cards in wooden drawers';
const selection = {
  path: 'Zettelkasten method.md',
  heading: 'Origins',
  text: `Paragraph 3 of the history: ${passage}.`,
};
const sent = (index: number) => JSON.stringify(server.chatRequests[index]!.messages);

describe('asking about a selected passage', () => {
  it('reaches the model as a numbered document with its note and heading, and is referenced as a selection', async () => {
    app = await startScriptedApp(workspace, server.url);
    server.script([{ text: 'The cards were numbered by position [1].' }]);
    const turn = await app.chat.send({ text: 'What does this mean?', selection });
    const answer = await turn.done;

    expect(answer.status).toBe('complete');
    const request = sent(0);
    expect(request).toContain('The user selected this passage');
    expect(request).toContain('\\"document\\":1');
    expect(request).toContain('\\"heading\\":\\"Origins\\"');
    expect(request).toContain(passage);
    const session = app.chat.session(turn.session.id);
    expect(session.documents).toEqual([
      { number: 1, path: 'Zettelkasten method.md', title: 'Zettelkasten method' },
    ]);
    const [question, reply] = session.messages;
    expect(question!.references).toEqual([
      expect.objectContaining({
        kind: 'selection',
        path: 'Zettelkasten method.md',
        document: 1,
        subpath: 'Origins',
        summary: selection.text,
      }),
    ]);
    expect(question!.parts).toContainEqual({ type: 'selection', step: 0, selection });
    // The answer's citation names the note the passage is in.
    expect(reply!.references).toContainEqual(
      expect.objectContaining({ kind: 'cited', path: 'Zettelkasten method.md', document: 1 }),
    );

    // The next question's request still holds the passage, as the first one sent it.
    server.script([{ text: 'Yes.' }]);
    await (
      await app.chat.send({ text: 'And then?', sessionId: turn.session.id })
    ).done;
    expect(sent(1)).toContain(passage);
  });

  it('cuts a 100,000-character selection to fit, saying so in words, and refuses an empty one or one of no note', async () => {
    app = await startScriptedApp(workspace, server.url, 8192);
    const huge = Array.from({ length: 2000 }, (_, index) => `Sentence ${index} about cards and drawers.`)
      .join(' ')
      .padEnd(100_000, ' filler');
    server.script([{ text: 'It is long.' }]);
    const answer = await (
      await app.chat.send({ text: 'Summarize this.', selection: { ...selection, text: huge } })
    ).done;
    expect(answer.status).toBe('complete');
    const request = sent(0);
    expect(request).toContain('Sentence 0 about cards');
    expect(request).not.toContain('Sentence 1500 about cards');
    expect(request).toMatch(/tokens omitted; the whole selection is in the note; call read_note with/);

    await expect(
      call(app, 'chat:send', { text: 'Hm?', selection: { ...selection, text: '  \n ' } }),
    ).rejects.toThrow('The selection is empty.');
    await expect(
      call(app, 'chat:send', { text: 'Hm?', selection: { ...selection, text: 'x'.repeat(200_001) } }),
    ).rejects.toThrow(/longer than 200,000 characters/);
    await expect(
      app.chat.send({ text: 'Hm?', selection: { ...selection, path: 'Gone.md' } }),
    ).rejects.toThrow(/not a note of the open vault/);
    expect(app.chat.list()).toHaveLength(1);
  });
});
