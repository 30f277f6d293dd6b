import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { ChatReference } from '../../src/shared/chat-domain';
import type { IndexChange } from '../../src/shared/index-domain';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

beforeEach(async () => {
  // Two notes named Canvas (English and Korean), a note with the alias AI, and a Chinese note whose alias
  // is the name of an English one.
  workspace = tempWorkspace('twins');
  server = await startScriptedModelServer();
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    watch: true,
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
  });
});
afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

async function linkFor(path: string): Promise<string> {
  const titles = await app.handlers['notes:titles'](undefined);
  return titles.find((note) => note.path === path)!.link;
}

/** What the model was sent for a message, once answered, and the references the message got. */
async function sentFor(text: string): Promise<string> {
  server.script([{ text: 'Noted.' }]);
  const turn = await app.chat.send({ text });
  const answer = await turn.done;
  references = app.chat.session(answer.sessionId).messages[0]!.references;
  return JSON.stringify(server.chatRequests.at(-1)!.messages);
}

let references: ChatReference[] = [];

describe('the link [[ completion writes for a note', () => {
  it('leads to the twin picked: the English Canvas goes to the model, not the Korean one a bare name reaches', async () => {
    const english = await linkFor('en/Plugins/Canvas.md');
    const korean = await linkFor('ko/플러그인/Canvas.md');
    expect([english, korean]).toEqual(['Plugins/Canvas', '플러그인/Canvas']);
    expect(await linkFor('Artificial Intelligence.md')).toBe('Artificial Intelligence');
    // The name alone resolves (shortest path) to the Korean twin: what was inserted before.
    const [bare] = await app.handlers['links:resolve']({ links: [{ target: 'Canvas', subpath: null }] });
    expect(bare).toMatchObject({ status: 'ambiguous', path: 'ko/플러그인/Canvas.md' });

    const sent = await sentFor(`What is [[${english}]]?`);
    expect(sent).toContain('Canvas is a core plugin for visual note-taking');
    expect(sent).not.toContain('캔버스는');
    const koreanSent = await sentFor(`And [[${korean}]]?`);
    expect(koreanSent).toContain('캔버스는 시각적 노트');
  });

  it('completes the headings and blocks of the note the typed link leads to', async () => {
    const english = await app.handlers['links:subpaths']({ target: 'Plugins/Canvas' });
    expect(english?.path).toBe('en/Plugins/Canvas.md');
    expect(english?.headings.map((heading) => heading.text)).toEqual(['Canvas', 'Create a canvas', 'Cards']);
    expect(english?.blocks.map((block) => block.id)).toEqual(['cards-intro']);
    const korean = await app.handlers['links:subpaths']({ target: '플러그인/Canvas' });
    expect(korean?.headings.map((heading) => heading.text)).toEqual(['Canvas', '캔버스 만들기']);
    expect(await app.handlers['links:subpaths']({ target: 'No such note' })).toBeNull();
  });
});

/** The links the health view lists under "Links naming an alias", group by group, and the links it lists as broken. */
async function healthLinks(kind: string) {
  const summary = await app.handlers['health:summary'](undefined);
  const groups = summary.kinds.find((found) => found.kind === kind)?.groups ?? [];
  const pages = await Promise.all(
    groups.map((group) => app.handlers['health:links']({ kind, key: group.key, offset: 0, limit: 100 })),
  );
  return pages.flatMap((page) => page.links);
}

describe('aliases', () => {
  it('in a note name no note: health lists [[AI]] as an alias of Artificial Intelligence, with the link to write', async () => {
    expect(await healthLinks('alias')).toMatchObject([
      {
        source: 'Reading list.md',
        raw: '[[AI]]',
        status: 'broken',
        resolved: null,
        reason: expect.stringContaining('an alias of Artificial Intelligence'),
        fix: '[[Artificial Intelligence|AI]]',
      },
    ]);
    expect(await healthLinks('broken')).toEqual([]);
    expect(await app.handlers['vault:issues'](undefined)).toMatchObject({ broken: 0, aliasLinks: 1 });
    // Only the link written with the note's name is a backlink.
    const backlinks = await app.handlers['links:backlinks']({ path: 'Artificial Intelligence.md' });
    expect(backlinks.map((link) => link.raw)).toEqual(['[[Artificial Intelligence|AI]]']);
    // The viewer's links say the same.
    const note = await app.handlers['notes:read']({ path: 'Reading list.md' });
    expect(note.links.find((link) => link.raw === '[[AI]]')).toMatchObject({
      status: 'broken',
      fix: '[[Artificial Intelligence|AI]]',
    });
  });

  it('in a chat message may name their note, marked as reached by the alias', async () => {
    const [found] = await app.handlers['links:resolve']({ links: [{ target: 'AI', subpath: null }] });
    expect(found).toMatchObject({ status: 'resolved', path: 'Artificial Intelligence.md', viaAlias: true });
    // Written in a note (`from`), the same link is unresolved.
    const [inNote] = await app.handlers['links:resolve']({
      links: [{ target: 'AI', subpath: null }],
      from: 'Reading list.md',
    });
    expect(inNote).toMatchObject({ status: 'broken', viaAlias: true });

    const sent = await sentFor('What is [[AI]]?');
    expect(sent).toContain('Machines that learn from data');
    expect(references).toMatchObject([
      { path: 'Artificial Intelligence.md', kind: 'direct', viaAlias: 'AI' },
    ]);
    // The note named by its own name carries no alias.
    await sentFor('What is [[Artificial Intelligence]]?');
    expect(references).toHaveLength(1);
    expect(references[0]).not.toHaveProperty('viaAlias');
  });

  it('do not take over a link whose note was renamed on disk: [[Graph view]] shows as broken, not Chinese', async () => {
    const overview = () => app.handlers['links:outgoing']({ path: 'en/Overview.md' });
    expect((await overview())[0]).toMatchObject({ status: 'resolved', resolved: 'en/Graph view.md' });

    // The watcher may report the new file and the old one's going in separate batches: wait for both.
    const renamed = new Promise<void>((resolve) => {
      const waiting = new Set(['en/Graph view.md', 'en/Graph overview.md']);
      const stop = app.events.subscribe((channel, payload) => {
        if (channel !== 'index:changed') return;
        const change = payload as IndexChange;
        for (const path of [...change.paths, ...change.renamed.flatMap(({ from, to }) => [from, to])])
          waiting.delete(path);
        if (waiting.size > 0) return;
        stop();
        resolve();
      });
    });
    renameSync(join(workspace.vault, 'en/Graph view.md'), join(workspace.vault, 'en/Graph overview.md'));
    await renamed;

    expect((await overview())[0]).toMatchObject({
      raw: '[[Graph view]]',
      status: 'broken',
      resolved: null,
      viaAlias: true,
      reason: expect.stringContaining('an alias of 图谱视图'),
    });
    expect(await app.handlers['links:backlinks']({ path: 'zh/图谱视图.md' })).toEqual([]);
    const aliasLinks = await healthLinks('alias');
    expect(aliasLinks.map((link) => [link.raw, link.fix]).sort()).toEqual([
      ['[[AI]]', '[[Artificial Intelligence|AI]]'],
      ['[[Graph view]]', '[[图谱视图|Graph view]]'],
    ]);
  });
});
