import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { RelatedNote } from '../../src/shared/embedding-domain';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';
import { runBuiltInTool } from '../support/tool-calls';

let workspace: ReturnType<typeof tempWorkspace>;
let app: KastenApp;

beforeEach(async () => {
  // An Obsidian-style help vault: "Embed files" in English, Korean and Chinese, under the same file name.
  workspace = tempWorkspace('translations');
  app = await startIndexedApp(workspace.dataDir, workspace.vault, { backgroundEmbeddings: false });
});
afterEach(async () => {
  await app.dispose();
  workspace.remove();
});

async function related(path: string): Promise<RelatedNote[]> {
  return (await app.handlers['notes:related']({ path })).notes;
}

/** The words a note is similar by, from its "similar words: …" reason. */
function similarWords(note: RelatedNote | undefined): string[] {
  const reason = note?.reasons.find((text) => text.startsWith('similar words: '));
  return reason ? reason.slice('similar words: '.length).split(', ') : [];
}

describe('related notes of a vault with translations', () => {
  it('mark the notes of the same file name in other folders, and offer only the others as missing links', async () => {
    const notes = await related('en/Embed files.md');
    const byPath = new Map(notes.map((note) => [note.path, note]));
    expect(byPath.get('ko/Embed files.md')).toMatchObject({ sameNameIn: 'ko', missingLink: false });
    expect(byPath.get('zh/Embed files.md')).toMatchObject({ sameNameIn: 'zh', missingLink: false });
    expect(byPath.get('en/Link to files.md')).toMatchObject({ sameNameIn: null, missingLink: true });
    expect(byPath.get('en/Daily notes.md')).toMatchObject({
      sameNameIn: null,
      missingLink: false,
      reasons: ['linked from here'],
    });
    // Its translations take no place from the notes of other names, and come after them.
    expect(notes.map((note) => note.path)).toEqual([
      'en/Link to files.md',
      'en/Daily notes.md',
      'ko/Embed files.md',
      'zh/Embed files.md',
    ]);
    for (const note of notes) expect(similarWords(note)).not.toContain('also');

    // The Korean note sees the English one the same way.
    const korean = await related('ko/Embed files.md');
    expect(korean.find((note) => note.path === 'en/Embed files.md')).toMatchObject({
      sameNameIn: 'en',
      missingLink: false,
    });
  });

  it('name no stop word of Chinese or English among the similar words, nor a word cut out of 链接到', async () => {
    const notes = await related('zh/链接笔记.md');
    const embed = notes.find((note) => note.path === 'zh/Embed files.md');
    expect(embed?.missingLink).toBe(true);
    const words = similarWords(embed);
    expect(words.length).toBeGreaterThan(0);
    for (const stop of ['可以', '使用', '也可以', '接到']) expect(words).not.toContain(stop);
    expect(words.some((word) => ['嵌入', '文件', '笔记', '附件'].includes(word))).toBe(true);
  });

  it('tell the model which notes have the same name in find_related, none of them a missing link', async () => {
    const vault = {
      readNote: app.vault.readNote.bind(app.vault),
      index: app.index,
      search: app.embeddings.search,
      related: app.embeddings.related,
      summary: () => '',
    };
    const numbers = (() => {
      const known = new Map<string, number>();
      return (path: string) => known.get(path) ?? (known.set(path, known.size + 1), known.size);
    })();
    const outcome = await runBuiltInTool(vault, numbers, 'find_related', { note: 'en/Embed files.md' });
    expect(outcome.ok).toBe(true);
    const listed = JSON.parse(outcome.output.slice(outcome.output.indexOf('['))) as {
      path: string;
      missingLink?: boolean;
      sameName?: string;
    }[];
    expect(listed.find((note) => note.path === 'ko/Embed files.md')).toEqual(
      expect.objectContaining({ sameName: 'same name, in ko/' }),
    );
    expect(listed.filter((note) => note.missingLink).map((note) => note.path)).toEqual([
      'en/Link to files.md',
    ]);
    expect(listed.filter((note) => note.sameName !== undefined).map((note) => note.path)).toEqual([
      'ko/Embed files.md',
      'zh/Embed files.md',
    ]);
  });
});
