import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { RelatedNote } from '../../src/shared/embedding-domain';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';

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
});
