import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { startIndexedApp } from '../support/indexed-app';
import { kasten } from '../support/run-cli';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

/** A chat whose answer searched, read a section and cited two notes, one at its heading. */
async function citedChat(): Promise<string> {
  server.script([
    { toolCalls: [{ id: 'call-search', name: 'search_notes', arguments: { query: 'links' } }] },
    {
      toolCalls: [
        { id: 'call-read', name: 'read_note', arguments: { note: 'Zettelkasten method', heading: 'Links' } },
      ],
    },
    { text: 'Links matter more than folders [1]; one idea per note [2]. Not [2023].' },
  ]);
  const turn = await app.chat.send({
    text: 'What do [[Atomic notes]] and [[No such note]] say about links?',
  });
  const answer = await turn.done;
  expect(answer.status).toBe('complete');
  return answer.sessionId;
}

const read = (path: string) => readFileSync(join(workspace.vault, path), 'utf8');

describe('exporting a chat to a note', () => {
  it('writes a note whose every link resolves: citations at their heading, references, and no broken link', async () => {
    const sessionId = await citedChat();
    const exported = await app.handlers['sessions:export']({ id: sessionId });
    // Named after the chat, without the characters a note name cannot hold everywhere.
    // The title was cut inside "links": the note's name ends at the last whole word, without "…".
    expect(exported.path).toBe('Kasten chats/What do Atomic notes and No such note say about.md');
    expect(exported.updated).toBe(false);
    const text = read(exported.path);
    expect(text).toMatch(/^---\ntitle: ".*"\ndate: .*\nexported: .*\nmodel: "scripted-model"\nsession: /);
    expect(text).toContain('[[Zettelkasten method#Links]]');
    expect(text).toContain('Not [2023].');
    expect(text).toContain('\\[\\[No such note]]');
    expect(text).toMatch(/## References\n\n- \[\[Atomic notes\]\] — mentioned/);

    // Kasten's own link check, on the note as indexed: everything resolves, the heading included.
    await app.index.whenIdle();
    const links = app.index.outgoing(exported.path);
    expect(links.length).toBeGreaterThan(3);
    expect(links.filter((link) => link.status !== 'resolved')).toEqual([]);
    expect(links.map((link) => link.resolved)).toEqual(
      expect.arrayContaining(['Zettelkasten method.md', 'Atomic notes.md']),
    );
    expect(app.index.links({ broken: true }).filter((link) => link.source === exported.path)).toEqual([]);
  });

  it('makes a new note each time, unless asked to update the last one', async () => {
    const sessionId = await citedChat();
    const first = await app.handlers['sessions:export']({ id: sessionId, folder: 'Chats/2026' });
    const second = await app.handlers['sessions:export']({ id: sessionId, folder: 'Chats/2026' });
    expect(second.path).toBe(first.path.replace(/\.md$/, ' 2.md'));
    expect(read(first.path)).toContain('Links matter more than folders');

    server.script([{ text: 'And a second answer.' }]);
    await (
      await app.chat.send({ text: 'More?', sessionId })
    ).done;
    const updated = await app.handlers['sessions:export']({ id: sessionId, update: true });
    expect(updated).toEqual({ path: second.path, updated: true });
    expect(read(second.path)).toContain('And a second answer.');
    expect(read(first.path)).not.toContain('And a second answer.');
  });

  it('never updates over what the user wrote in the exported note', async () => {
    const sessionId = await citedChat();
    const { path } = await app.handlers['sessions:export']({ id: sessionId });
    const edited = `${read(path)}\nMy own thoughts on this.\n`;
    writeFileSync(join(workspace.vault, path), edited);
    await expect(app.handlers['sessions:export']({ id: sessionId, update: true })).rejects.toThrow(
      /was edited since Kasten wrote it, so it was not replaced/,
    );
    expect(read(path)).toBe(edited);
  });

  it('exports from the command line: kasten export <vault> --session ID [--out PATH]', async () => {
    const sessionId = await citedChat();
    await app.dispose();
    const cli = (...argv: string[]) =>
      kasten('export', workspace.vault, ...argv, '--data-dir', workspace.dataDir);
    const made = await cli('--session', sessionId, '--out', 'Notes/links chat.md', '--json');
    expect(made.err).toBe('');
    expect(JSON.parse(made.out)).toEqual({ path: 'Notes/links chat.md', updated: false });
    expect(read('Notes/links chat.md')).toContain('[[Zettelkasten method#Links]]');
    // The same path again is refused: an export never overwrites a note.
    const again = await cli('--session', sessionId, '--out', 'Notes/links chat.md');
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists');
    expect((await cli('--session', sessionId, '--update')).out).toBe('Updated Notes/links chat.md');
    expect((await kasten('export', workspace.vault, '--data-dir', workspace.dataDir)).code).toBe(2);
    app = await startIndexedApp(workspace.dataDir, workspace.vault);
  });
  it('exports chats titled CON, aux and nul.txt to notes Windows can hold', async () => {
    const paths = [];
    for (const title of ['CON', 'aux', 'nul.txt']) {
      server.script([{ text: 'Noted.' }]);
      const { sessionId } = await (await app.chat.send({ text: title })).done;
      paths.push((await app.exporter.export({ sessionId })).path);
    }
    expect(paths).toEqual([
      'Kasten chats/Chat CON.md',
      'Kasten chats/Chat aux.md',
      'Kasten chats/Chat nul.txt.md',
    ]);
    for (const path of paths) expect(read(path)).toContain('Noted.');
  });

  it('refuses an absolute --out as wrong usage, and an absolute folder from any host, writing nothing', async () => {
    const sessionId = await citedChat();
    await expect(app.exporter.export({ sessionId, folder: '/tmp/x' })).rejects.toThrow(
      /absolute path; the export folder must be inside the vault/,
    );
    await app.dispose();
    const refused = await kasten(
      'export',
      workspace.vault,
      '--session',
      sessionId,
      '--out',
      '/tmp/x',
      '--data-dir',
      workspace.dataDir,
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      '--out "/tmp/x" is an absolute path; give a folder or note inside the vault',
    );
    expect(existsSync(join(workspace.vault, 'tmp'))).toBe(false);
    app = await startIndexedApp(workspace.dataDir, workspace.vault);
  });
});
