import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as original from '../../src/main/attachments/attachment-content';
import { readAttachmentContent } from '../../src/main/attachments/attachment-content';
import { createAttachmentReader } from '../../src/main/attachments/attachment-reader';
import { ReadingTurns } from '../../src/main/attachments/reading-turns';
import { refuseBeforeReading } from '../../src/shared/attachment-domain';
import { writePdf } from '../fixtures/attachments/pdf-writer';

// Read as written, unless a test makes one read slow.
vi.mock(import('../../src/main/attachments/attachment-content'), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, readAttachmentContent: vi.fn(actual.readAttachmentContent) };
});

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'attachments', name)));
const manyPages = writePdf(
  Array.from({ length: 60 }, (_, page) => ({ lines: [`Page ${page + 1}`, 'A line of text.'] })),
);
const reader = createAttachmentReader(null);
afterAll(() => reader.dispose());

describe('the attachment reader in the calling thread', () => {
  it('reads text and PDFs', async () => {
    expect(await reader.read('notes.md', fixture('notes.md'))).toMatchObject({ ok: true, kind: 'markdown' });
    expect(await reader.read('two-pages.pdf', fixture('two-pages.pdf'))).toMatchObject({
      ok: true,
      pages: 2,
    });
  });

  it('gives up a PDF that takes longer than its timeout, with a refusal that says so', async () => {
    const hasty = createAttachmentReader(null, 20);
    // The read is held until its signal says the time is up, so it surely takes longer.
    let given: AbortSignal | undefined;
    vi.mocked(readAttachmentContent).mockImplementationOnce(async (task, signal) => {
      given = signal;
      await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
      return original.readAttachmentContent(task);
    });
    expect(await hasty.read('slow.pdf', manyPages)).toEqual({
      ok: false,
      name: 'slow.pdf',
      code: 'timeout',
      message: '“slow.pdf” took more than 30 seconds to read, so Kasten stopped reading it.',
    });
    // Given up because its time ran out: the read was still going then.
    expect((given?.reason as Error | undefined)?.name).toBe('TimeoutError');
  });

  it('rejects with the abort reason when the caller aborts, and reads the next file', async () => {
    const controller = new AbortController();
    const reading = reader.read('many.pdf', manyPages, controller.signal);
    controller.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    await expect(reader.read('notes.md', fixture('notes.md'), AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(await reader.read('notes.md', fixture('notes.md'))).toMatchObject({ ok: true });
  });
});

describe('refusing before reading', () => {
  it('refuses by size and by known binary extension, and lets other names through', () => {
    expect(refuseBeforeReading('big.pdf', 26 * 1024 * 1024)).toMatchObject({ code: 'too-large' });
    expect(refuseBeforeReading('movie.MP4', 10)).toMatchObject({ code: 'unsupported' });
    expect(refuseBeforeReading('blank.txt', 0)).toMatchObject({ code: 'empty' });
    expect(refuseBeforeReading('notes.unknown', 10)).toBeNull();
    expect(refuseBeforeReading('archive.tar.gz', 10)).toMatchObject({ code: 'unsupported' });
  });
});

describe('reading turns', () => {
  it('starts a turn only when the one before it has ended, even if a waiter in between gave up', async () => {
    const turns = new ReadingTurns();
    const order: string[] = [];
    const endFirst = await turns.take();
    const gaveUp = new AbortController();
    const second = turns.take(gaveUp.signal);
    const third = turns.take().then((end) => {
      order.push('third');
      end();
    });
    gaveUp.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    order.push('first ends');
    endFirst();
    await third;
    expect(order).toEqual(['first ends', 'third']);
  });
});
