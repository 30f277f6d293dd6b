import { describe, expect, it } from 'vitest';
import { noteLanguage } from '../../../src/main/index/note-language';
import { queryStems, sameStem, stemColumns } from '../../../src/main/index/search-stems';

const english =
  'The notes are linked to each other, and every link is shown in the graph of the vault when you open it.';
const spanish =
  'Las notas están enlazadas entre sí, y cada enlace se muestra en el gráfico de la bóveda cuando la abres.';
const portuguese =
  'As notas estão ligadas entre si, e cada ligação aparece no gráfico do cofre quando você o abre.';
const german =
  'Die Notizen sind miteinander verknüpft, und jede Verknüpfung wird im Graphen des Tresors gezeigt.';

describe('the language of a note', () => {
  it('is told by its commonest words', () => {
    expect(noteLanguage(english)).toBe('en');
    for (const text of [spanish, portuguese, german]) expect(noteLanguage(text)).toBeNull();
  });

  it('is not told from a few words', () => {
    expect(noteLanguage('The notes')).toBeNull();
  });
});

describe('the stem columns of a note', () => {
  const columns = (title: string, body: string) => stemColumns([title, '', '', body], body);

  it('hold each English stem once, marked with its language, the title apart from the body', () => {
    const [title, body] = columns('Linking notes', english);
    expect(title.split(' ')).toEqual(['\uE000link', '\uE000note']);
    const stems = body.split(' ');
    expect(stems).toEqual(expect.arrayContaining(['\uE000note', '\uE000link', '\uE000graph', '\uE000vault']));
    // Stop words and stems shorter than three letters are left out; each stem comes once.
    expect(stems).not.toContain('\uE000the');
    expect(new Set(stems).size).toBe(stems.length);
  });

  it('are empty for a note in a language no stemmer knows: no English endings cut from Spanish words', () => {
    expect(columns('Notas enlazadas', spanish)).toEqual(['', '']);
  });
});

describe("a query word's stems", () => {
  it('are marked as the columns hold them, and none for a word too short, a stop word or another script', () => {
    expect(queryStems('Linked')).toEqual(['\uE000link']);
    expect(queryStems('embed')).toEqual(['\uE000emb']);
    for (const word of ['is', 'the', '中文', 'заметки']) expect(queryStems(word)).toEqual([]);
  });

  it('tell the words of a note that share them, for snippets', () => {
    expect(sameStem('connected', 'connection')).toBe(true);
    expect(sameStem('connector', 'connection')).toBe(false);
    expect(sameStem('embellece', 'embed')).toBe(false);
  });
});
