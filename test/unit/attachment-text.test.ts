import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAttachmentContent } from '../../src/main/attachments/attachment-content';
import type { AttachmentResult } from '../../src/shared/attachment-domain';

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'attachments', name)));
const read = (name: string, bytes: Uint8Array | string, maxCharacters?: number): Promise<AttachmentResult> =>
  readAttachmentContent({
    name,
    bytes: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes,
    maxCharacters,
  });

describe('text attachments', () => {
  it('reads UTF-8 Markdown as markdown, accents intact', async () => {
    const result = await read('notes.md', fixture('notes.md'));
    expect(result).toMatchObject({ ok: true, kind: 'markdown', language: null, pages: null });
    expect(result.ok && result.text).toContain('the café in Zürich');
    expect(result.ok && result.bytes).toBe(fixture('notes.md').length);
    expect(result.ok && result.truncated).toBe(false);
  });

  it('drops the byte order mark of a UTF-8 file', async () => {
    const result = await read('with-bom.md', fixture('with-bom.md'));
    expect(result.ok && result.text.startsWith('# Saved by Notepad')).toBe(true);
  });

  it('decodes UTF-16 text that starts with a byte order mark', async () => {
    const result = await read('utf16.txt', fixture('utf16.txt'));
    expect(result).toMatchObject({ ok: true, kind: 'text' });
    expect(result.ok && result.text).toBe('Grüße aus Zürich — naïve café, 東京, ½ ≠ ¼.\nSecond line.\n');
  });

  it('reads a code file with the language of its fenced block', async () => {
    const result = await read('greet.py', fixture('greet.py'));
    expect(result).toMatchObject({ ok: true, kind: 'code', language: 'python' });
    expect(result.ok && result.text).toContain('def greet(name: str) -> str:');
    expect(await read('App.TSX', 'export const App = () => null;\n')).toMatchObject({ language: 'tsx' });
  });

  it('reads a file of an unknown or no extension as text when its content is text', async () => {
    expect(await read('notes.weird', 'plain words\n')).toMatchObject({ ok: true, kind: 'text' });
    expect(await read('README', 'plain words\n')).toMatchObject({ ok: true, kind: 'text' });
  });

  it('makes Windows and old Mac line ends plain line feeds', async () => {
    const result = await read('crlf.txt', 'one\r\ntwo\rthree\n');
    expect(result.ok && result.text).toBe('one\ntwo\nthree\n');
  });
});

describe('files that are not text', () => {
  it('refuses a PNG renamed .txt as binary, naming it', async () => {
    expect(await read('photo.txt', fixture('photo.txt'))).toEqual({
      ok: false,
      name: 'photo.txt',
      code: 'binary',
      message: '“photo.txt” is not text: it holds binary data.',
    });
  });

  it('refuses binary content under an unknown extension too', async () => {
    expect(await read('photo.dat', fixture('photo.txt'))).toMatchObject({ ok: false, code: 'binary' });
  });

  it('refuses text made mostly of control characters though it has no NUL', async () => {
    const bytes = Uint8Array.from({ length: 400 }, (_, index) => (index % 3 === 0 ? 0x01 : 0x41));
    expect(await read('dump.log', bytes)).toMatchObject({ ok: false, code: 'binary' });
  });

  it('refuses known binary formats by name, saying what Kasten reads', async () => {
    const result = await read('holiday.jpeg', 'whatever the bytes are');
    expect(result).toMatchObject({ ok: false, code: 'unsupported' });
    expect(!result.ok && result.message).toBe(
      '“holiday.jpeg” is not a kind of file Kasten can read: attach text, Markdown, code or PDF files.',
    );
    expect(await read('report.docx', 'PK')).toMatchObject({ ok: false, code: 'unsupported' });
  });

  it('refuses Latin-1 text with advice to save it as UTF-8', async () => {
    const latin1 = Buffer.from('Café, déjà vu, naïve, façade, Zürich, Ålesund, señor.\n', 'latin1');
    const result = await read('old.txt', latin1);
    expect(result).toMatchObject({ ok: false, code: 'binary' });
    expect(!result.ok && result.message).toContain('save it as UTF-8');
  });

  it('decodes text with one stray byte in thousands of characters, marking it U+FFFD', async () => {
    const bytes = Buffer.concat([Buffer.from('a'.repeat(2000)), Buffer.from([0xe9]), Buffer.from('b\n')]);
    const result = await read('mostly.log', bytes);
    expect(result.ok && result.text).toBe(`${'a'.repeat(2000)}\uFFFDb\n`);
  });

  it('marks a last character cut in half with U+FFFD', async () => {
    const bytes = Buffer.concat([Buffer.from('a'.repeat(2000)), Buffer.from('é').subarray(0, 1)]);
    expect(await read('cut.txt', bytes)).toMatchObject({ ok: true, text: `${'a'.repeat(2000)}\uFFFD` });
  });

  it('refuses an empty or blank file as empty', async () => {
    expect(await read('blank.md', ' \n\t\n')).toEqual({
      ok: false,
      name: 'blank.md',
      code: 'empty',
      message: '“blank.md” is empty: there is no text in it to attach.',
    });
    expect(await read('none.txt', new Uint8Array())).toMatchObject({ ok: false, code: 'empty' });
  });
});

describe('size limits', () => {
  it('cuts text past the character limit and says it was truncated', async () => {
    const result = await read('long.txt', 'x'.repeat(500), 100);
    expect(result).toMatchObject({ ok: true, truncated: true, bytes: 500 });
    expect(result.ok && result.text).toBe('x'.repeat(100));
  });

  it('does not split a character made of two UTF-16 units at the cut', async () => {
    const result = await read('emoji.txt', `${'x'.repeat(99)}😀😀`, 100);
    expect(result.ok && result.text).toBe('x'.repeat(99));
  });

  it('reads only the bytes the kept text needs, even when they end inside a character', async () => {
    // Past the accents come bytes that are not UTF-8: decoded, they would have the file refused.
    const accents = new TextEncoder().encode('é'.repeat(40));
    const bytes = new Uint8Array(accents.length + 5000).fill(0xff);
    bytes.set(accents);
    const result = await read('accents.txt', bytes, 11);
    expect(result).toMatchObject({ ok: true, text: 'é'.repeat(11), truncated: true });
    expect((await read('accents.txt', bytes)).ok).toBe(false);
  });

  it('refuses a file over 25 MB before reading it', async () => {
    // Plain text, which a reader would accept; any look at its bytes past the length is noted.
    const text = new Uint8Array(25 * 1024 * 1024 + 1).fill(0x78);
    const looked: PropertyKey[] = [];
    const watched = new Proxy(text, {
      get(target, key) {
        if (key !== 'length') looked.push(key);
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const result = await read('huge.txt', watched);
    expect(looked).toEqual([]);
    expect(result).toEqual({
      ok: false,
      name: 'huge.txt',
      code: 'too-large',
      message: '“huge.txt” is too large: an attachment can be up to 25 MB.',
    });
  });
});
