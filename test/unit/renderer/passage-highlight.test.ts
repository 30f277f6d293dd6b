// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { findPassage } from '../../../src/renderer/src/features/ask/passage-highlight';

function note(html: string): HTMLElement {
  const article = document.createElement('article');
  article.innerHTML = html;
  document.body.replaceChildren(article);
  return article;
}

describe('findPassage', () => {
  it('finds a passage copied across blocks and an embed, whatever the line breaks between them', () => {
    const body = note(
      '<h2>Origins</h2><p>Luhmann kept <em>cards</em> in drawers.</p>' +
        '<div class="note-embed" data-path="Cards.md"><p>Each card had a number.</p></div><p>After.</p>',
    );
    // As Selection.toString() gives it: blocks separated by line breaks.
    const range = findPassage(body, 'kept cards in drawers.\n\nEach card had a number.');
    expect(range?.toString()).toBe('kept cards in drawers.Each card had a number.');
  });

  it('gives nothing for a passage the note no longer holds, or one of only whitespace', () => {
    const body = note('<p>Tomatoes need sun.</p>');
    expect(findPassage(body, 'Basil needs warmth.')).toBeNull();
    expect(findPassage(body, ' \n\t ')).toBeNull();
  });
});
