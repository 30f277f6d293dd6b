import { expect, it } from 'vitest';
import { snippetParts } from '../../../src/renderer/src/features/search/snippet-parts';

it('splits a snippet into plain text and highlighted matches', () => {
  expect(snippetParts('…the \u0002slip\u0003 box of \u0002Luhmann\u0003')).toEqual([
    { text: '…the ', match: false },
    { text: 'slip', match: true },
    { text: ' box of ', match: false },
    { text: 'Luhmann', match: true },
  ]);
  expect(snippetParts('no match here')).toEqual([{ text: 'no match here', match: false }]);
  expect(snippetParts('\u0002all\u0003')).toEqual([{ text: 'all', match: true }]);
});
