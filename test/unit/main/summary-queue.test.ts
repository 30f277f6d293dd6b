import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NoteHash } from '../../../src/main/index/note-catalog';
import { ModelError, type ChatModel, type LlmEvent, type LlmRequest } from '../../../src/main/llm/llm-types';
import type { SqliteDatabase } from '../../../src/main/storage/database';
import { openAppDatabase } from '../../../src/main/storage/app-database';
import {
  SummaryQueue,
  describeSummaryReport,
  extractiveSummary,
  type SummaryQueueOptions,
} from '../../../src/main/summaries/summary-queue';
import type { SummaryProgress } from '../../../src/shared/model-domain';
import { SummaryStore } from '../../../src/main/summaries/summary-store';

/** Answers from `reply`; counts calls and how many run at once. */
class FakeModel implements ChatModel {
  calls: string[] = [];
  active = 0;
  maxActive = 0;

  constructor(
    readonly name: string,
    private readonly reply: (title: string, signal: AbortSignal) => Promise<string> = async (title) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `Summary of ${title}.`;
    },
  ) {}

  async *stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    const first = request.messages[0];
    const title = first?.role === 'user' ? (/^Title: (.*)$/m.exec(first.text)?.[1] ?? '') : '';
    this.calls.push(title);
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      const text = await this.reply(title, request.signal);
      yield { type: 'text', text };
      yield { type: 'finish', usage: { inputTokens: null, outputTokens: null } };
    } finally {
      this.active--;
    }
  }
}

/** A reply that never comes: it rejects when the call is aborted, as a real provider call does. */
function hang(signal: AbortSignal): Promise<string> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
}

function note(title: string, lead = `${title} lead.`, hash = `hash-${title}`): NoteHash {
  return { path: `${title}.md`, title, hash, lead, words: 40 };
}

let dir: string;
let db: SqliteDatabase;
let store: SummaryStore;
let notes: NoteHash[];
let progress: SummaryProgress[];

function queue(model: ChatModel | null, options: Partial<SummaryQueueOptions> = {}): SummaryQueue {
  return new SummaryQueue({
    store,
    model: () => model,
    notes: (paths) => (paths ? notes.filter((candidate) => paths.includes(candidate.path)) : notes),
    readNote: async (path) => ({ content: `Content of ${path}` }),
    onProgress: (update) => progress.push(update),
    ...options,
  });
}

async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 1));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasten-summary-'));
  db = openAppDatabase(dir);
  store = new SummaryStore(db);
  notes = ['One', 'Two', 'Three', 'Four', 'Five'].map((title) => note(title));
  progress = [];
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SummaryQueue', () => {
  it('never has more calls in flight than its concurrency, and reports progress to the end', async () => {
    const model = new FakeModel('fake');
    const report = await queue(model, { concurrency: 2 }).summarize();

    expect(model.calls).toHaveLength(5);
    expect(model.maxActive).toBe(2);
    expect(report).toMatchObject({ notes: 5, summarized: 5, cached: 0, failed: 0, cancelled: false });
    expect(progress[0]).toEqual({ state: 'running', done: 0, total: 5, failed: 0, firstError: null });
    expect(progress.at(-1)).toEqual({ state: 'idle', done: 5, total: 5, failed: 0, firstError: null });
    expect(progress.map((update) => update.done)).toEqual([0, 1, 2, 3, 4, 5, 5]);
  });

  it('calls the model only for notes without a summary for their content, and once per content', async () => {
    notes.push(note('Copy of One', 'One lead.', 'hash-One'));
    const model = new FakeModel('fake');
    const summaries = queue(model);
    expect((await summaries.summarize()).summarized).toBe(6);
    expect(model.calls).toHaveLength(5);

    expect(await summaries.summarize()).toMatchObject({ summarized: 0, cached: 6 });
    expect(model.calls).toHaveLength(5);

    notes[1] = { ...notes[1]!, hash: 'hash-Two-edited' };
    expect(await summaries.summarize()).toMatchObject({ summarized: 1, cached: 5 });
    expect(model.calls.at(-1)).toBe('Two');

    const other = new FakeModel('other');
    expect(await queue(other).summarize(['One.md'])).toMatchObject({ notes: 1, summarized: 1, cached: 0 });
  });

  it('stops calling the model when cancelled, keeps what it made, and reports cancelled', async () => {
    const model = new FakeModel('fake', async (title, signal) => (title === 'One' ? 'First.' : hang(signal)));
    const summaries = queue(model, { concurrency: 1 });
    const running = summaries.summarize();
    const queued = summaries.summarize(['Five.md']);
    await until(() => model.calls.length === 2);
    summaries.cancel();

    const report = await running;
    expect(report).toMatchObject({ summarized: 1, failed: 0, cancelled: true });
    expect(await queued).toMatchObject({ summarized: 0, cancelled: true });
    expect(model.calls).toEqual(['One', 'Two']);
    expect(progress.at(-1)?.state).toBe('cancelled');
    expect(summaries.summaryFor('One.md')).toEqual({ text: 'First.', source: 'llm' });
    expect(summaries.summaryFor('Two.md')?.source).toBe('extract');
    expect(describeSummaryReport(report)).toMatch(/^Summarizing cancelled: 1 of 5 notes done/);

    // After a cancel the queue works again and picks up where it stopped.
    const resumed = new FakeModel('fake');
    expect(await queue(resumed).summarize()).toMatchObject({ summarized: 4, cached: 1 });
  });

  it('refuses a run of more than 200 model calls until it is confirmed, counting notes of one content once', async () => {
    notes = Array.from({ length: 202 }, (_, index) => note(`Note ${index}`));
    // Two notes with the same content are one call.
    notes.push(note('Copy', 'Copy lead.', 'hash-Note 0'));
    const model = new FakeModel('fake', async (title) => `Summary of ${title}.`);
    const summaries = queue(model);
    expect(summaries.work().toDo).toHaveLength(202);
    await expect(summaries.summarize()).rejects.toThrow(
      /^202 notes have no summary from fake yet: that is 202 model calls\. See what it would take first/,
    );
    expect(model.calls).toHaveLength(0);
    // Asked for a few notes, nothing to confirm.
    expect(await summaries.summarize(['Note 1.md', 'Note 2.md'])).toMatchObject({ summarized: 2 });
    expect(summaries.work()).toMatchObject({ cached: 2 });
    expect(summaries.work().toDo).toHaveLength(200);
    expect(await summaries.summarize(undefined, { confirmed: true })).toMatchObject({
      summarized: 201,
      cached: 2,
    });
    expect(model.calls).toHaveLength(202);
  });

  it('tells onMissing of a used note without a model summary of its content, and of no other', async () => {
    notes.push({ ...note('Empty'), words: 0 });
    const missing: string[] = [];
    const summaries = queue(new FakeModel('fake'), { onMissing: (path) => missing.push(path) });
    summaries.used('One.md');
    expect(summaries.summaryFor('Two.md')).toEqual({ text: 'Two lead.', source: 'extract' });
    summaries.used('Empty.md');
    summaries.used('Gone.md');
    expect(missing).toEqual(['One.md', 'Two.md']);

    await summaries.summarize(['One.md']);
    summaries.used('One.md');
    expect(summaries.summaryFor('One.md')?.source).toBe('llm');
    expect(missing).toEqual(['One.md', 'Two.md']);
  });

  it('stops when the caller aborts its signal', async () => {
    const model = new FakeModel('fake', (_, signal) => hang(signal));
    const controller = new AbortController();
    const running = queue(model).summarize(undefined, { signal: controller.signal });
    await until(() => model.calls.length === 2);
    controller.abort();
    expect(await running).toMatchObject({ summarized: 0, failed: 0, cancelled: true });
    expect(model.calls).toHaveLength(2);
  });

  it('counts failures, keeps the first message, caches nothing for them and retries them next time', async () => {
    let broken = true;
    const model = new FakeModel('fake', async (title) => {
      if (title === 'Two' && broken) throw new ModelError('The provider is down.', 'server');
      if (title === 'Four' && broken) return '   ';
      return `Summary of ${title}.`;
    });
    const summaries = queue(model);
    const report = await summaries.summarize();
    expect(report).toMatchObject({ summarized: 3, failed: 2, firstError: 'Two.md: The provider is down.' });
    expect(progress.at(-1)).toEqual({
      state: 'idle',
      done: 5,
      total: 5,
      failed: 2,
      firstError: 'Two.md: The provider is down.',
    });
    expect(describeSummaryReport(report)).toMatch(
      /^Summarized 5 notes \(0 cached, 2 failed: Two\.md: The provider is down\.\) in \d+\.\d s$/,
    );
    expect(summaries.summaryFor('Two.md')?.source).toBe('extract');

    broken = false;
    expect(await summaries.summarize()).toMatchObject({
      summarized: 2,
      cached: 3,
      failed: 0,
      firstError: null,
    });
    expect(model.calls.slice(5).sort()).toEqual(['Four', 'Two']);
  });

  it('counts a note that cannot be read as a failure', async () => {
    const model = new FakeModel('fake');
    const summaries = queue(model, {
      readNote: async (path) => {
        if (path === 'Three.md') throw new Error('File not found.');
        return { content: 'text' };
      },
    });
    expect(await summaries.summarize()).toMatchObject({ summarized: 4, failed: 1 });
    expect(model.calls).not.toContain('Three');
  });

  it('drops reasoning blocks and extra whitespace from the reply', async () => {
    const model = new FakeModel('fake', async () => '<think>Let me see.</think>\n\n  Short and\n sweet.  ');
    const summaries = queue(model);
    await summaries.summarize(['One.md']);
    expect(summaries.summaryFor('One.md')).toEqual({ text: 'Short and sweet.', source: 'llm' });
  });

  it('falls back to the lead paragraph, trimmed on a word boundary, without a cached summary', async () => {
    const long = `${'word '.repeat(60)}end.`;
    notes = [note('Short', 'A short lead.'), note('Long', long)];
    const summaries = queue(new FakeModel('fake'));
    expect(summaries.summaryFor('Short.md')).toEqual({ text: 'A short lead.', source: 'extract' });
    const trimmed = summaries.summaryFor('Long.md')!.text;
    expect(trimmed.length).toBeLessThanOrEqual(201);
    expect(trimmed).toMatch(/ word…$/);
    expect(summaries.summaryFor('Missing.md')).toBeNull();

    expect(extractiveSummary(`${'x'.repeat(300)}`)).toBe(`${'x'.repeat(200)}…`);
    expect(extractiveSummary('Ends with a comma, and more words here', 20)).toBe('Ends with a comma…');
  });

  it('without a model answers with the extract and refuses to summarize', async () => {
    const summaries = queue(null);
    expect(summaries.summaryFor('One.md')).toEqual({ text: 'One lead.', source: 'extract' });
    await expect(summaries.summarize()).rejects.toThrow(/No model is chosen/);
    expect(progress).toEqual([]);
  });
});
