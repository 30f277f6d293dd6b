import { describe, expect, it } from 'vitest';
import { webAddressesIn } from '../../../src/shared/web-addresses';

describe('the web addresses of a message', () => {
  it('finds http and https addresses without the punctuation of the sentence around them', () => {
    expect(
      webAddressesIn(
        'Compare https://example.org/compost, (see http://garden.test/a?b=1) and "https://example.org/x".',
      ),
    ).toEqual(['https://example.org/compost', 'http://garden.test/a?b=1', 'https://example.org/x']);
  });

  it('keeps a closing parenthesis that belongs to the address, and each address once', () => {
    expect(
      webAddressesIn(
        'https://en.wikipedia.org/wiki/Compost_(disambiguation) and again https://en.wikipedia.org/wiki/Compost_(disambiguation).',
      ),
    ).toEqual(['https://en.wikipedia.org/wiki/Compost_(disambiguation)']);
  });

  it('leaves other schemes and words that only look like addresses', () => {
    expect(webAddressesIn('file:///etc/passwd javascript:alert(1) ftp://x.test http:// https:')).toEqual([]);
  });
});
