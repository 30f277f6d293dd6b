import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { SearchHit } from '../../src/shared/index-domain';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';
import { runAppTool } from '../support/tool-calls';

let app: KastenApp;
let remove: () => void;

beforeAll(async () => {
  const ws = tempWorkspace('search-ranking');
  remove = ws.remove;
  app = await startIndexedApp(ws.dataDir, ws.vault);
});
afterAll(async () => {
  await app.dispose();
  remove();
});

const search = (query: string, limit = 50) => app.index.search({ query, limit });
const paths = async (query: string) => (await search(query)).map((hit) => hit.path);
const how = (hits: SearchHit[]) => hits.map((hit) => [hit.path, hit.match]);

describe('ranking: the note named first, then whole words, prefixes, stems', () => {
  it('puts the note titled as the query first, before notes holding its words more often', async () => {
    const hits = await search('obsidian cli');
    expect(how(hits.slice(0, 2))).toEqual([
      ['en/Obsidian CLI.md', 'title'],
      ['en/Terminal tips.md', 'whole'],
    ]);
    // `cli` only as the start of `Clipper`: after every note holding it as a word.
    const clipper = hits.slice(2);
    expect(clipper).toHaveLength(5);
    expect(clipper.every((hit) => hit.match === 'prefix' && /Clipper/.test(hit.path))).toBe(true);
  });

  it('finds a note by an alias or by its file name as first as by its title', async () => {
    expect(how((await search('command line')).slice(0, 1))).toEqual([['en/Obsidian CLI.md', 'title']]);
    const renamed = await search('renamed in the heading');
    expect(renamed[0]).toMatchObject({
      path: 'en/Renamed in the heading.md',
      title: 'A heading unlike the file name',
      match: 'title',
    });
  });

  it('ranks a whole word over a longer word it starts, over a word of the same stem, whatever bm25 says', async () => {
    // The stem-only note holds its word in the title and three times; the whole-word note once.
    expect(how(await search('connection'))).toEqual([
      ['en/Network troubleshooting.md', 'whole'],
      ['en/Team connections.md', 'prefix'],
      ['en/Connected devices.md', 'stem'],
    ]);
    const devices = (await search('connection')).at(-1)!;
    // The words found by their stem are marked in the snippet.
    expect(devices.snippet).toContain('\u0002connected\u0003');
  });

  it('stems English words in English notes only, and never to a stem of two letters', async () => {
    // A Spanish note holds the English word `connected`: found as written, not through an English stem.
    expect(await paths('connection')).not.toContain('es/Impresora.md');
    expect(await paths('connected')).toContain('es/Impresora.md');
    // Polish and Danish forms of "aliases" are neither the word, nor longer words it starts, nor stems.
    expect(await paths('aliases')).toEqual(['en/Aliases.md']);
    // `embed` is not a stem of Spanish `embellece` nor Portuguese `embelezador`.
    expect(await paths('embed')).toEqual(['en/Embed files.md']);
  });
});

describe("Obsidian's search operators", () => {
  it('"exact phrase" needs the words together and in order', async () => {
    expect(await paths('star wars')).toEqual(
      expect.arrayContaining(['en/Film night.md', 'en/Space history.md']),
    );
    expect(await paths('"star wars"')).toEqual(['en/Film night.md']);
  });

  it('-word leaves out the notes holding the word, or a longer word it starts', async () => {
    const meetings = await paths('meeting');
    expect(meetings).toEqual(expect.arrayContaining(['en/Weekly meeting.md', 'en/Meetup.md']));
    const noWeekly = await paths('meeting -weekly');
    expect(noWeekly).not.toContain('en/Weekly meeting.md');
    expect(noWeekly).toContain('en/Meetup.md');
    expect(await paths('meeting -(weekly team)')).not.toContain('en/Weekly meeting.md');
    expect(await paths('-meeting')).not.toEqual(expect.arrayContaining(['en/Meetup.md']));
  });

  it('OR finds either side, and binds less than the words around it', async () => {
    expect((await paths('cartoon OR launch')).sort()).toEqual(['en/Film night.md', 'en/Space history.md']);
    expect(await paths('friday cartoon OR twentieth battle')).toHaveLength(2);
    expect(await paths('friday cartoon OR twentieth flat')).toEqual(['en/Film night.md']);
  });

  it('path:, file: and tag: filter by the path, the file name and the tags, nested tags included', async () => {
    expect((await paths('meeting path:"Daily notes"')).sort()).toEqual([
      'Daily notes/2024-07-01.md',
      'Daily notes/2024-08-15.md',
    ]);
    expect(await paths('meeting file:2024-08')).toEqual(['Daily notes/2024-08-15.md']);
    expect(await paths('meeting -path:daily')).not.toContain('Daily notes/2024-07-01.md');
    expect((await paths('tag:work')).sort()).toEqual(['en/Space history.md', 'en/Weekly meeting.md']);
    expect(await paths('tag:#work/meetings')).toEqual(['en/Weekly meeting.md']);
    expect((await paths('tag:(home OR work/meetings) meeting')).sort()).toEqual([
      'en/Meetup.md',
      'en/Weekly meeting.md',
    ]);
    // Filters alone list the notes by path, each with its lead paragraph.
    const listed = await search('tag:home');
    expect(listed.map((hit) => hit.path)).toEqual(['en/Film night.md', 'en/Meetup.md']);
    expect(listed[0]!.snippet).toMatch(/^On Friday we watched Star Wars/);
  });

  it('names the note whose title is the query as typed, even when the query reads as syntax', async () => {
    const hits = await search('Obsidian CLI -clipper');
    expect(hits[0]).toMatchObject({ path: 'en/Obsidian CLI.md', match: 'title' });
  });
});

describe('a page of hits and the total', () => {
  it('counts every note found and gives the hits page by page, in the order of one long list', async () => {
    const all = await app.index.searchPage({ query: 'obsidian', limit: 200 });
    expect(all.total).toBe(all.hits.length);
    expect(all.total).toBe(7);
    const first = await app.index.searchPage({ query: 'obsidian', limit: 3 });
    const second = await app.index.searchPage({ query: 'obsidian', limit: 3, offset: 3 });
    const third = await app.index.searchPage({ query: 'obsidian', limit: 3, offset: 6 });
    expect([first.total, second.total, third.total]).toEqual([7, 7, 7]);
    expect([...first.hits, ...second.hits, ...third.hits]).toEqual(all.hits);
  });

  it('answers search:results with the page, the total and a whole index', async () => {
    const results = await app.handlers['search:results']({ query: 'obsidian', limit: 2, offset: 1 });
    expect(results.hits.map((hit) => hit.path)).toEqual(
      (await search('obsidian')).slice(1, 3).map((hit) => hit.path),
    );
    expect(results).toMatchObject({ total: 7, partial: null });
  });
});

describe('the search_notes tool', () => {
  it('ranks as the search box does: the named note first', async () => {
    const outcome = await runAppTool(app, 'search_notes', { query: 'obsidian cli' });
    const documents = JSON.parse(outcome.output) as { path: string }[];
    expect(documents.map((document) => document.path).slice(0, 2)).toEqual([
      'en/Obsidian CLI.md',
      'en/Terminal tips.md',
    ]);
  });
});
