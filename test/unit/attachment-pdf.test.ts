import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAttachmentContent } from '../../src/main/attachments/attachment-content';
import type { AttachmentResult } from '../../src/shared/attachment-domain';
import { writePdf } from '../fixtures/attachments/pdf-writer';

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'attachments', name)));
const read = (name: string, bytes = fixture(name), maxCharacters?: number): Promise<AttachmentResult> =>
  readAttachmentContent({ name, bytes, maxCharacters });

describe('PDF attachments', () => {
  it('reads each page of a text PDF under a page marker, with the page count', async () => {
    const result = await read('two-pages.pdf');
    expect(result).toMatchObject({ ok: true, kind: 'pdf', language: null, pages: 2, truncated: false });
    expect(result.ok && result.text).toBe(
      [
        '--- page 1 ---',
        'Field notes, page one.',
        'The heron waits at the weir (every morning).',
        '',
        '--- page 2 ---',
        'Page two: the river rises in March.',
        'Backslash \\ and parentheses () survive.',
      ].join('\n'),
    );
  });

  it('says a PDF of images only has no text, and that Kasten does not read text in images', async () => {
    expect(await read('scan.pdf')).toEqual({
      ok: false,
      name: 'scan.pdf',
      code: 'pdf-no-text',
      message:
        '“scan.pdf” has no text to read: its pages are images only (Kasten does not read text in images).',
    });
  });

  it('reads a PDF where only some pages are images, marking those pages', async () => {
    const result = await read('partly-scanned.pdf');
    expect(result).toMatchObject({ ok: true, pages: 3 });
    expect(result.ok && result.text).toBe(
      '--- page 1 ---\nTyped cover page.\n\n--- page 2 ---\n(no text on this page)\n\n--- page 3 ---\nTyped last page.',
    );
  });

  it('refuses a password-protected PDF as encrypted', async () => {
    expect(await read('secret.pdf')).toEqual({
      ok: false,
      name: 'secret.pdf',
      code: 'pdf-encrypted',
      message: '“secret.pdf” is password-protected: Kasten cannot read it.',
    });
  });

  it('refuses a truncated PDF and an HTML page named .pdf as damaged', async () => {
    const message = '“truncated.pdf” is damaged or not really a PDF: Kasten cannot read it.';
    expect(await read('truncated.pdf')).toEqual({
      ok: false,
      name: 'truncated.pdf',
      code: 'pdf-corrupt',
      message,
    });
    expect(await read('not-a-pdf.pdf')).toMatchObject({ ok: false, code: 'pdf-corrupt' });
    expect(
      await read(
        'random.pdf',
        Uint8Array.from({ length: 300 }, (_, index) => (index * 37) % 256),
      ),
    ).toMatchObject({ ok: false, code: 'pdf-corrupt' });
  });

  it('reads a PDF that is a view into a shared Node buffer, and leaves those bytes whole', async () => {
    const shared = Buffer.concat([Buffer.from('other data'), fixture('two-pages.pdf')]);
    const view = shared.subarray('other data'.length);
    expect(await read('view.pdf', view)).toMatchObject({ ok: true, pages: 2 });
    expect(shared.toString('latin1', 0, 15)).toBe('other data%PDF-');
  });

  it('reads a PDF by its signature whatever its name', async () => {
    expect(await read('download.bin.txt', fixture('two-pages.pdf'))).toMatchObject({ ok: true, kind: 'pdf' });
  });

  it('stops at the character limit, says so, and still counts every page', async () => {
    const pages = Array.from({ length: 20 }, (_, page) => ({ lines: [`Page ${page + 1} `.repeat(20)] }));
    const result = await read('long.pdf', writePdf(pages), 500);
    expect(result).toMatchObject({ ok: true, pages: 20, truncated: true });
    expect(result.ok && result.text.length).toBe(500);
    expect(result.ok && result.text).toContain('--- page 2 ---');
    expect(result.ok && result.text).not.toContain('--- page 20 ---');
  });
});
