import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAttachmentReader } from '../../src/main/attachments/attachment-reader';
import { writePdf } from '../fixtures/attachments/pdf-writer';
// Built by the integration global setup with the rest of the main process.
import { builtAttachmentWorker } from '../support/built-worker';

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'attachments', name)));
const line = 'The heron waits at the weir every morning, and the river rises in March.';
const longPdf = writePdf(
  Array.from({ length: 150 }, (_, page) => ({
    lines: Array.from({ length: 45 }, (_, row) => `Page ${page + 1}, line ${row + 1}: ${line}`),
  })),
);

const reader = createAttachmentReader(builtAttachmentWorker);
afterAll(() => reader.dispose());

describe('the attachment reader with its reading process', () => {
  it('reads every kind of file and refuses bad ones, as the app runs it', async () => {
    expect(await reader.read('two-pages.pdf', fixture('two-pages.pdf'))).toMatchObject({
      ok: true,
      pages: 2,
    });
    expect(await reader.read('secret.pdf', fixture('secret.pdf'))).toMatchObject({ code: 'pdf-encrypted' });
    expect(await reader.read('scan.pdf', fixture('scan.pdf'))).toMatchObject({ code: 'pdf-no-text' });
    expect(await reader.read('truncated.pdf', fixture('truncated.pdf'))).toMatchObject({
      code: 'pdf-corrupt',
    });
    expect(await reader.read('photo.txt', fixture('photo.txt'))).toMatchObject({ code: 'binary' });
    expect(await reader.read('utf16.txt', fixture('utf16.txt'))).toMatchObject({ ok: true, kind: 'text' });
    expect(await reader.read('greet.py', fixture('greet.py'))).toMatchObject({
      ok: true,
      language: 'python',
    });
  });

  it('turns the event loop a thousand times, one after another, while a 150-page PDF is read', async () => {
    const turns = 1_000;
    let turned = 0;
    const reading = reader.read('long.pdf', longPdf).then((result) => ({ result, turnedBefore: turned }));
    while (turned < turns) {
      await new Promise((resolve) => setImmediate(resolve));
      turned++;
    }
    const { result, turnedBefore } = await reading;
    expect(result).toMatchObject({ ok: true, pages: 150, truncated: false });
    expect(result.ok && result.text).toContain('--- page 150 ---\nPage 150, line 1:');
    expect(turnedBefore).toBe(turns);
  });

  it('ends a read that runs past its timeout with a refusal that says so', async () => {
    const hasty = createAttachmentReader(builtAttachmentWorker, 1);
    try {
      expect(await hasty.read('long.pdf', longPdf)).toMatchObject({ ok: false, code: 'timeout' });
    } finally {
      await hasty.dispose();
    }
  });

  it('stops the process when the caller aborts, and reads the next file in a new one', async () => {
    const controller = new AbortController();
    const reading = reader.read('long.pdf', longPdf, controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(await reader.read('two-pages.pdf', fixture('two-pages.pdf'))).toMatchObject({
      ok: true,
      pages: 2,
    });
  });
});
