import { describe, expect, it } from 'vitest';
import { refusedAddress } from '../../../src/main/web/address-policy';
import { pageArticle } from '../../../src/main/web/page-article';
import { pageText } from '../../../src/main/web/page-charset';

const filler = 'Composting turns kitchen scraps into humus over a few months of patient turning. ';
const articlePage = `<html><head><title>Compost | Garden Blog</title></head><body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <article><h1>Compost</h1><p>${filler.repeat(12)}</p>
  <p>See <a href="/guides/heap">the heap guide</a>.</p><script>steal()</script></article>
  <footer>Copyright and cookie banner</footer></body></html>`;

describe('a page reduced to its article', () => {
  it('keeps the article as Markdown, without the navigation, footer or scripts, links made absolute', () => {
    const page = pageArticle(articlePage, 'https://garden.example/posts/compost')!;
    expect(page.article).toBe(true);
    expect(page.markdown).toContain('Composting turns kitchen scraps');
    expect(page.markdown).toContain('[the heap guide](https://garden.example/guides/heap)');
    expect(page.markdown).not.toContain('cookie banner');
    expect(page.markdown).not.toContain('steal()');
  });

  it('gives the body text of a page without an article, and nothing for a page without text', () => {
    const page = pageArticle(
      '<html><head><title>Status</title></head><body><div>All systems normal</div><script>x()</script></body></html>',
      'https://status.example/',
    )!;
    expect(page).toMatchObject({ title: 'Status', article: false });
    expect(page.markdown).toBe('All systems normal');
    expect(pageArticle('<html><body><script>x()</script></body></html>', 'https://e.example/')).toBeNull();
  });
});

describe('a page in its own encoding', () => {
  it('reads windows-1251 named by a meta tag and Shift_JIS named by the server', () => {
    const cyrillic = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1251"></head><body>'),
      Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]),
      Buffer.from('</body></html>'),
    ]);
    expect(pageText(cyrillic, null, true)).toContain('Привет');
    const japanese = Buffer.from([0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd]);
    expect(pageText(japanese, 'Shift_JIS', true)).toBe('こんにちは');
  });
});

describe('the address guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['10.0.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
  ])('refuses %s as %s', (address, words) => {
    expect(refusedAddress(address)).toContain(words);
  });

  it('lets public addresses through', () => {
    expect(refusedAddress('93.184.216.34')).toBeNull();
    expect(refusedAddress('2606:4700::1111')).toBeNull();
  });
});
