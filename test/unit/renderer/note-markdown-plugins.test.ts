import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  noteRehypePlugins,
  noteRemarkPlugins,
  noteRemarkRehypeOptions,
  noteUrlTransform,
} from '../../../src/renderer/src/features/notes/note-markdown-plugins';
import type { NoteMath } from '../../../src/renderer/src/features/notes/note-math';
import { vaultPath } from '../../../src/renderer/src/features/notes/vault-path';
import { tagsIn } from '../../../src/shared/markdown/text-rules';

let katexLoaded: NoteMath;
beforeAll(async () => {
  const { rehypeKatex } = await import('../../../src/renderer/src/features/notes/note-katex');
  katexLoaded = { status: 'ready', plugin: rehypeKatex };
});

/** The viewer's pipeline without its components: the HTML the sanitizer and plugins leave. */
function render(markdown: string, math: NoteMath = katexLoaded): string {
  return renderToStaticMarkup(
    createElement(ReactMarkdown, {
      remarkPlugins: noteRemarkPlugins(markdown),
      rehypePlugins: noteRehypePlugins(math),
      remarkRehypeOptions: noteRemarkRehypeOptions,
      urlTransform: noteUrlTransform,
      children: markdown,
    }),
  );
}

describe('the note viewer’s Markdown pipeline', () => {
  it('drops scripts, style sheets, frames, event handlers and javascript: links from raw HTML', () => {
    const html = render(
      [
        '<script>window.__pwned = 1</script>',
        '',
        '<style>body { display: none }</style>',
        '',
        '<iframe src="https://example.com"></iframe>',
        '',
        '<img src=x onerror="window.__pwned=1">',
        '',
        '<a href="javascript:alert(1)">link</a> <span onclick="x()" style="color: red">span</span>',
      ].join('\n'),
    );
    expect(html).not.toMatch(/script|__pwned|display: none|iframe|onerror|onclick|style=|javascript:/);
    expect(html).toContain('<a>link</a> <span>span</span>');
  });

  it('keeps no remote image source, including srcset, but keeps vault paths and data: images', () => {
    const html = render(
      [
        '<img src="https://example.com/x.png"> <img src="//example.com/y.png" alt="protocol-relative">',
        '',
        '<picture><source srcset="https://example.com/z.png"></picture>',
        '',
        '![markdown](https://example.com/m.png) <img src="images/dot.png"> <img src="data:image/png;base64,AAAA">',
      ].join('\n'),
    );
    expect(html).not.toMatch(/https:|srcset|source/);
    expect(html).toContain('src="images/dot.png"');
    expect(html).toContain('src="data:image/png;base64,AAAA"');
    expect(vaultPath('//example.com/y.png', 'Note.md')).toBeNull();
    expect(vaultPath('../images/a%20b.png', 'notes/deep/Note.md')).toBe('notes/images/a b.png');
    expect(vaultPath('/images/dot.png', 'notes/Note.md')).toBe('images/dot.png');
  });

  it('keeps the attributes wikilinks, embeds, footnotes and task lists need past the sanitizer', () => {
    const html = render('See [[Other#Part|other]] and ![[pic.png]].[^1]\n\n- [x] done\n\n[^1]: Note.');
    expect(html).toContain(
      '<a class="wikilink" data-target="Other" data-subpath="Part" data-line="1" data-column="5">',
    );
    expect(html).toContain('<span class="wikilink-embed" data-target="pic.png"');
    expect(html).toContain('href="#fn-1" id="user-content-fnref-1" data-footnote-ref=""');
    expect(html).toContain('<li id="user-content-fn-1"');
    expect(html).toContain('<input type="checkbox" disabled="" checked=""/>');
  });

  it('marks ==highlights== outside code, and renders $math$ with KaTeX', () => {
    const html = render('A ==marked *word*== and `==code==`, with $x^2$.');
    expect(html).toContain('<mark>marked <em>word</em></mark>');
    expect(html).toContain('<code>==code==</code>');
    expect(html).toContain('class="katex"');
  });

  it('shows math as written until KaTeX is loaded, and says so when it could not be', () => {
    const unloaded = render('With $x^2$.', { status: 'unloaded' });
    expect(unloaded).toContain('<code class="language-math math-inline">x^2</code>');
    expect(unloaded).not.toContain('katex');
    const failed: NoteMath = { status: 'failed', error: 'Failed to fetch' };
    expect(render('With $x^2$.', failed)).toMatch(
      /^<p class="embed-missing">Math is shown as written: KaTeX could not be loaded \(Failed to fetch\)\.<\/p>.*x\^2/,
    );
    expect(render('No math, only $5.', failed)).not.toContain('KaTeX');
  });

  it('makes callouts of Obsidian’s types and aliases, folding as <details>, unknown types as notes', () => {
    const html = render(
      [
        '> [!faq]- Folded question',
        '> Body.',
        '',
        '> [!recipe]',
        '> An unknown type.',
        '',
        '> [!constructor]',
        '> A type named like a property of every object.',
      ].join('\n'),
    );
    expect(html).toMatch(/<details class="callout" data-callout="faq" data-collapsible="true">/);
    expect(html).toContain('<div class="callout-title-text">Folded question</div>');
    expect(html).toMatch(/data-callout="note".*<div class="callout-title-text">Recipe<\/div>/s);
    expect(html).toContain('<div class="callout-title-text">Constructor</div>');
  });

  it('leaves a quote that mentions [!note] after its first word a quote, with all its text', () => {
    const html = render('> See [!note] for callouts.');
    expect(html).not.toContain('callout"');
    expect(html).toContain('See [!note] for callouts.');
  });
});

const blocks = /<\/?(?:p|li|ol|ul|h\d|section|pre|table|tr|td|th)\b[^>]*>/g;
const entities: Record<string, string> = { '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** The text a reader sees: the HTML without its tags (blocks apart), spaces collapsed. */
const shown = (html: string) =>
  html
    .replace(blocks, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(?:quot|amp|lt|gt);/g, (entity) => entities[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();

describe('%% comments in the reading view', () => {
  it('hides an inline comment and keeps the text around it', () => {
    expect(shown(render('This is an %%inline%% comment.'))).toBe('This is an comment.');
  });

  it('hides a block comment that spans blank lines, with the Markdown inside it', () => {
    const html = render(
      [
        'Before.',
        '',
        '%%',
        'A block comment with a [[Link]] and **bold**.',
        '',
        '- a list in it',
        '',
        '# and a heading',
        '%%',
        '',
        'After.',
      ].join('\n'),
    );
    expect(shown(html)).toBe('Before. After.');
    expect(html).not.toMatch(/<(ul|h1|strong|a)\b/);
  });

  it('keeps %% inside code spans and fenced code as text', () => {
    const html = render(
      ['Text `a %%b%% c` here.', '', '```js', 'const s = "%%"; // %% kept', '```'].join('\n'),
    );
    expect(shown(html)).toBe('Text a %%b%% c here. const s = "%%"; // %% kept');
  });

  it('hides a fenced block inside a comment, whose own %% does not end it', () => {
    const html = render(['%%', '```', 'x %% y', '```', 'still hidden %%', '', 'Shown.'].join('\n'));
    expect(shown(html)).toBe('Shown.');
  });

  it('hides the rest of the note after a comment that is never closed', () => {
    expect(shown(render('Kept %% from here\n\n# Gone\n\nGone too.'))).toBe('Kept');
  });

  it('drops a paragraph that only held a comment, and what only said so in HTML', () => {
    const html = render('%% These headings use HTML %%\n<h1>Heading</h1>\n\n<!-- an HTML comment -->');
    expect(html).toBe('<h1 data-line="2">Heading</h1>');
  });

  it('keeps a table cell or a list item a comment empties, so columns and bullets stay', () => {
    const html = render('| a | b |\n|---|---|\n| %%x%% | y |\n\n- %%only%%\n- two');
    expect(html).toMatch(/<td><\/td>\s*<td>y<\/td>/);
    expect(html.match(/<li/g)).toHaveLength(2);
  });
});

describe('footnotes in the reading view', () => {
  it('makes ^[…] an inline footnote, numbered with the regular ones in reading order', () => {
    const html = render('One^[Inline *first*.] and two[^n] and three^[Inline last.].\n\n[^n]: Regular.');
    const numbers = [...html.matchAll(/data-footnote-ref=""[^>]*>(\d+)</g)].map((match) => match[1]);
    expect(numbers).toEqual(['1', '2', '3']);
    const notes = html.slice(html.indexOf('<section'));
    expect(shown(notes)).toMatch(/Inline first\. ↩.*Regular\. ↩.*Inline last\. ↩/);
    expect(notes).toContain('<em>first</em>');
    expect(html).not.toContain('^[');
  });

  it('nests brackets and keeps a wikilink inside an inline footnote', () => {
    const html = render('Text^[See [this] and [[Other|that]].] after.');
    expect(shown(html)).toMatch(/^Text1 after\. Footnotes See \[this\] and that\. ↩$/);
    expect(html).toContain('<a class="wikilink" data-target="Other"');
  });

  it('leaves ^[ that never closes, and one inside code, as written', () => {
    expect(shown(render('A ^[never closed and `^[code]`.'))).toBe('A ^[never closed and ^[code].');
  });

  it('renders a regular footnote and its back-reference', () => {
    const html = render('A claim.[^1]\n\n[^1]: The source.');
    expect(html).toContain('href="#fn-1"');
    expect(shown(html)).toContain('The source. ↩');
  });
});

describe('tags in the reading view', () => {
  it('makes #tags tags by the index’s rule, with the tag in data-tag', () => {
    const text = 'Tagged #project/alpha, #émigré and #a-b_c but not #123, a#b or #/ alone.';
    const html = render(text);
    const tags = [...html.matchAll(/<a class="tag" data-tag="([^"]+)">#\1<\/a>/g)].map((match) => match[1]);
    expect(tags).toEqual(['project/alpha', 'émigré', 'a-b_c']);
    expect(tags).toEqual(tagsIn(text));
    expect(shown(html)).toContain('not #123, a#b');
  });

  it('leaves # in code, in link text, in comments and in headings’ markers alone', () => {
    const html = render('# Heading #real\n\n`#code` [#link](https://example.com) %%#hidden%%');
    expect([...html.matchAll(/data-tag="([^"]+)"/g)].map((match) => match[1])).toEqual(['real']);
    expect(html).toContain('<code>#code</code>');
    expect(html).not.toContain('hidden');
  });

  it('lets no raw HTML pass itself off as more than a tag', () => {
    const html = render('<a class="tag" data-tag="x" href="javascript:alert(1)" onclick="y()">#x</a>');
    expect(html).toContain('<a class="tag" data-tag="x">#x</a>');
  });
});

describe('code in the reading view', () => {
  it('is highlighted as in the chat, and a Mermaid block is left for the diagram', () => {
    const html = render('```python\ndef f():\n    return "x"\n```\n\n```mermaid\ngraph TD; A-->B\n```');
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('<span class="hljs-string">&quot;x&quot;</span>');
    expect(html).toContain('<code class="language-mermaid">graph TD; A--&gt;B\n</code>');
  });
});
