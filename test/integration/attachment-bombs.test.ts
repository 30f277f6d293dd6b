import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAttachmentReader } from '../../src/main/attachments/attachment-reader';
import { pdfBomb } from '../fixtures/attachments/pdf-bombs';
// Built by the integration global setup with the rest of the main process.
import { builtAttachmentWorker } from '../support/built-worker';

const twoPages = new Uint8Array(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'attachments', 'two-pages.pdf')),
);
const reader = createAttachmentReader(builtAttachmentWorker);
afterAll(() => reader.dispose());

/** What `work` resolves to, and by how many MB this process's resident memory rose at most meanwhile. */
async function hostGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const timer = setInterval(sample, 10);
  try {
    const result = await work();
    sample();
    return { result, growthMb: (peak - before) / 1048576 };
  } finally {
    clearInterval(timer);
  }
}

describe('PDF decompression bombs', () => {
  it.each([
    ['a page whose content stream inflates to 2 GB', 'content.pdf', () => pdfBomb(2048, 'content')],
    ['a font that inflates to 4 GB', 'font.pdf', () => pdfBomb(4096, 'font')],
  ])(
    'refuse %s as too large while the app grows by under 200 MB, then read the next PDF',
    async (_, name, build) => {
      const bomb = build();
      const { result, growthMb } = await hostGrowth(() => reader.read(name, bomb));
      console.info(`${name}: ${(bomb.length / 1048576).toFixed(1)} MB, app grew ${growthMb.toFixed(0)} MB`);
      expect(result).toMatchObject({
        ok: false,
        code: 'too-large',
        message: expect.stringMatching(new RegExp(`^“${name}” is too large to read: `)),
      });
      expect(growthMb).toBeLessThan(200);
      expect(await reader.read('two-pages.pdf', twoPages)).toMatchObject({ ok: true, pages: 2 });
    },
    60_000,
  );
});
