import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { describe, expect, it } from 'vitest';
import {
  noteRehypePlugins,
  noteRemarkPlugins,
  noteRemarkRehypeOptions,
  noteUrlTransform,
} from '../../../src/renderer/src/features/notes/note-markdown-plugins';
import { vaultPath } from '../../../src/renderer/src/features/notes/vault-path';

/** The viewer's pipeline without its components: the HTML the sanitizer and plugins leave. */
function render(markdown: string): string {
  return renderToStaticMarkup(
    createElement(ReactMarkdown, {
      remarkPlugins: noteRemarkPlugins(markdown),
      rehypePlugins: noteRehypePlugins,
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
