import { describe, expect, it } from 'vitest';
import { noteLink } from '../../../src/main/export/chat-markdown';

describe('a web page in an exported chat', () => {
  it('is a Markdown link to its address, not a wikilink the vault cannot resolve', () => {
    expect(noteLink('https://garden.example/compost_(hot)', 'Hot [composting]')).toBe(
      '[Hot composting](<https://garden.example/compost_(hot)>)',
    );
    expect(noteLink('Compost.md', 'Compost')).toBe('[[Compost]]');
  });
});
