import { readdirSync, readFileSync } from 'node:fs';
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

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The processes this one started, from every thread's list of children (Linux). */
function childProcesses(): number[] {
  const tasks = readdirSync(`/proc/${process.pid}/task`);
  return tasks.flatMap((task) =>
    readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/** A process's command line, one argument an entry. */
function commandOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** The soft RLIMIT_DATA of a process, in bytes, as /proc tells it. */
function dataLimitOf(pid: number): string | undefined {
  const row = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('Max data size'));
  return row?.split(/\s{2,}/)[1];
}

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

  it('reads a 150-page PDF in a child process under its memory limit, the event loop turning while it reads', async () => {
    const own = createAttachmentReader(builtAttachmentWorker);
    try {
      const before = new Set(childProcesses());
      let settled = false;
      const reading = own.read('long.pdf', longPdf).finally(() => (settled = true));
      // The reader starts a process for its first file; found once the shell has set the limit and
      // become Node (until then its command line is the shell's).
      let child: number | undefined;
      while (!settled && child === undefined) {
        await turn();
        child = childProcesses().find((pid) => !before.has(pid) && commandOf(pid)[0] === process.execPath);
      }
      expect(child, 'a reading process started for the PDF').toBeDefined();
      expect(commandOf(child!)).toContain(builtAttachmentWorker);
      expect(dataLimitOf(child!)).toBe(String(1024 * 1024 * 1024));

      // Held still, that process cannot answer: the read waits while the loop turns a thousand times.
      process.kill(child!, 'SIGSTOP');
      try {
        for (let turned = 0; turned < 1_000; turned++) await turn();
        expect(settled).toBe(false);
      } finally {
        process.kill(child!, 'SIGCONT');
      }
      const result = await reading;
      expect(result).toMatchObject({ ok: true, pages: 150, truncated: false });
      expect(result.ok && result.text).toContain('--- page 150 ---\nPage 150, line 1:');
    } finally {
      await own.dispose();
    }
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
