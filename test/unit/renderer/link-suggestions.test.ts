import { describe, expect, it } from 'vitest';
import type { NoteTitle } from '../../../src/shared/index-domain';
import { linkText, suggestionsFor } from '../../../src/renderer/src/features/chat/link-suggestions';

const note = (title: string, aliases: string[] = [], path = `${title}.md`): NoteTitle => ({
  path,
  title,
  aliases,
  link: path.replace(/\.md$/, ''),
});

describe('[[ completion', () => {
  it('folds case and Latin accents, as search does', () => {
    const titles = [note('Résumé tips'), note('Cafe\u0301 list'), note('Other', ['Über uns'])];
    expect(suggestionsFor(titles, 'resume').map((s) => s.title)).toEqual(['Résumé tips']);
    expect(suggestionsFor(titles, 'CAFÉ').map((s) => s.title)).toEqual(['Cafe\u0301 list']);
    expect(suggestionsFor(titles, 'uber')).toEqual([
      { label: 'Über uns', title: 'Other', path: 'Other.md', link: 'Other', alias: 'Über uns' },
    ]);
  });

  it('keeps Thai and Bengali vowel signs: a word does not offer another sharing its consonants', () => {
    const titles = [note('ลิงก์'), note('ลงก์'), note('বাংলা'), note('বংল')];
    expect(suggestionsFor(titles, 'ลิงก์').map((s) => s.title)).toEqual(['ลิงก์']);
    expect(suggestionsFor(titles, 'ลงก์').map((s) => s.title)).toEqual(['ลงก์']);
    expect(suggestionsFor(titles, 'বাংলা').map((s) => s.title)).toEqual(['বাংলা']);
  });

  it('offers the exact title or alias first, then names starting with it, then a word of it, then the rest', () => {
    // Listed by title, as notes:titles gives them: the exact alias came 7th before.
    const titles = [
      note('Aliases and links'),
      note('Aliasing in art'),
      note('Aliasy'),
      note('Bad aliases'),
      note('Malias'),
      note('Obsidian aliases'),
      note('Zettelkasten', ['Alias']),
    ];
    expect(suggestionsFor(titles, 'alias').map((s) => s.label)).toEqual([
      'Alias',
      'Aliasy',
      'Aliasing in art',
      'Aliases and links',
      'Bad aliases',
      'Obsidian aliases',
      'Malias',
    ]);
  });

  it('writes the link that leads to the note picked among twins, and the alias after | when one was picked', () => {
    const titles = [
      note('Canvas', [], 'en/Plugins/Canvas.md'),
      note('Canvas', ['캔버스'], 'ko/플러그인/Canvas.md'),
      note('Artificial Intelligence', ['AI']),
    ];
    titles[0]!.link = 'Plugins/Canvas';
    titles[1]!.link = '플러그인/Canvas';
    const twins = suggestionsFor(titles, 'canvas');
    expect(twins.map((s) => s.path)).toEqual(['en/Plugins/Canvas.md', 'ko/플러그인/Canvas.md']);
    expect(twins.map(linkText)).toEqual(['Plugins/Canvas', '플러그인/Canvas']);
    expect(suggestionsFor(titles, '캔버스').map(linkText)).toEqual(['플러그인/Canvas|캔버스']);
    expect(suggestionsFor(titles, 'ai').map(linkText)).toEqual(['Artificial Intelligence|AI']);
  });

  it('offers a note under its file name when its title is another, and links it by the file name', () => {
    const titles = [{ path: 'notes/2024-05-01.md', title: 'A day in May', aliases: [], link: '2024-05-01' }];
    expect(suggestionsFor(titles, '2024-05').map((s) => [s.label, linkText(s)])).toEqual([
      ['2024-05-01', '2024-05-01'],
    ]);
  });
});
