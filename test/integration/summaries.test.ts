import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { createChatModel } from '../../src/main/llm/ai-sdk-model';
import type { SqliteDatabase } from '../../src/main/storage/database';
import { openAppDatabase } from '../../src/main/storage/app-database';
import type { SummaryProgress } from '../../src/shared/model-domain';
import { SummaryQueue } from '../../src/main/summaries/summary-queue';
import { SummaryStore } from '../../src/main/summaries/summary-store';
import { startIndexedApp } from '../support/indexed-app';
import {
  startScriptedModelServer,
  type ChatRequest,
  type ScriptedModelServer,
} from '../support/scripted-model-server';
import { tempWorkspace, waitFor } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;
let db: SqliteDatabase;

/** A queue as the app would wire it, on the app's own database file, the index and the vault. */
function summaries(model = 'scripted-model', onProgress?: (progress: SummaryProgress) => void) {
  const settings = {
    provider: 'openai-compatible' as const,
    baseUrl: `${server.url}/v1`,
    model,
    apiKeyEnv: null,
    contextWindow: null,
    summaryModel: null,
  };
  return new SummaryQueue({
    store: new SummaryStore(db),
    model: () => createChatModel(settings, null),
    notes: (paths) => app.index.noteHashes(paths),
    readNote: (path) => app.vault.readNote(path),
    onProgress,
  });
}

/** The note a summary request was about, from the title line of its user message. */
function titleOf(request: ChatRequest): string {
  const user = request.messages.find((message) => message.role === 'user');
  const text = typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
  return /Title: (.*)/.exec(text)?.[1] ?? '';
}

function requestedTitles(from = 0): string[] {
  return server.chatRequests.slice(from).map(titleOf).sort();
}

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer({
    replies: (request) => ({ text: `  ${titleOf(request)} in brief,\nper ${request.model}.` }),
  });
  app = await startIndexedApp(workspace.dataDir, workspace.vault);
  db = openAppDatabase(workspace.dataDir);
});
afterEach(async () => {
  db.close();
  await app.dispose();
  await server.stop();
  workspace.remove();
});

describe('note summaries', () => {
  it('are not asked for notes without words: empty, only frontmatter, binary', async () => {
    // The bad-files fixture beside the chat vault, indexed again.
    cpSync(join(import.meta.dirname, '..', 'fixtures', 'vaults', 'bad-files'), join(workspace.vault, 'odd'), {
      recursive: true,
    });
    await app.dispose();
    app = await startIndexedApp(workspace.dataDir, workspace.vault);

    const report = await summaries().summarize();
    expect(report).toMatchObject({ notes: 10, summarized: 10, failed: 0 });
    const asked = requestedTitles();
    expect(asked).toEqual(expect.arrayContaining(['Atomic notes', 'CRLF note', 'Target', 'With BOM']));
    for (const empty of ['empty', 'only frontmatter', 'binary']) expect(asked).not.toContain(empty);
    expect(JSON.stringify(server.chatRequests)).not.toContain('\\u0000');
  });

  it('cost one model call per note, and none for notes whose content did not change', async () => {
    const progress: SummaryProgress[] = [];
    const first = await summaries('scripted-model', (update) => progress.push(update)).summarize();

    expect(first).toMatchObject({ notes: 3, summarized: 3, cached: 0, failed: 0, cancelled: false });
    expect(requestedTitles()).toEqual(['Atomic notes', 'Gardening', 'Zettelkasten method']);
    const request = server.chatRequests.find((candidate) => titleOf(candidate) === 'Gardening')!;
    expect(request.tools ?? []).toEqual([]);
    expect(JSON.stringify(request.messages)).toContain('Summarize the note in one or two sentences');
    expect(JSON.stringify(request.messages)).toContain('Tomatoes need sun and water.');
    expect(progress.at(-1)).toEqual({ state: 'idle', done: 3, total: 3, failed: 0, firstError: null });

    // A new queue on the same database file: the cache lives in SQLite, not in memory.
    const queue = summaries();
    expect(await queue.summarize()).toMatchObject({ summarized: 0, cached: 3 });
    expect(server.chatRequests).toHaveLength(3);
    expect(queue.summaryFor('Gardening.md')).toEqual({
      text: 'Gardening in brief, per scripted-model.',
      source: 'llm',
    });
  });

  it('make a new summary of a note edited on disk, and only of that note', async () => {
    const queue = summaries();
    await queue.summarize();
    expect(server.chatRequests).toHaveLength(3);

    writeFileSync(join(workspace.vault, 'Gardening.md'), '# Gardening\n\nPeppers need even more sun.\n');
    // Until the index has seen the edit, the cached summary still belongs to the note's indexed content.
    expect(queue.summaryFor('Gardening.md')?.source).toBe('llm');
    await app.index.applyChanges([{ type: 'change', path: 'Gardening.md', at: Date.now() }]);
    expect(queue.summaryFor('Gardening.md')).toEqual({
      text: 'Peppers need even more sun.',
      source: 'extract',
    });

    server.script((request) => ({ text: `${titleOf(request)}: peppers.` }));
    expect(await queue.summarize()).toMatchObject({ summarized: 1, cached: 2 });
    expect(requestedTitles(3)).toEqual(['Gardening']);
    expect(JSON.stringify(server.chatRequests[3]!.messages)).toContain('Peppers need even more sun.');
    expect(queue.summaryFor('Gardening.md')).toEqual({ text: 'Gardening: peppers.', source: 'llm' });
    expect(queue.summaryFor('Atomic notes.md')?.text).toBe('Atomic notes in brief, per scripted-model.');

    // After a restart the app's index and the cache still agree: nothing to do.
    await app.dispose();
    app = await startIndexedApp(workspace.dataDir, workspace.vault);
    expect(await summaries().summarize()).toMatchObject({ summarized: 0, cached: 3 });
    expect(server.chatRequests).toHaveLength(4);
  });

  it('are made again for another model, and kept apart per model', async () => {
    await summaries().summarize();
    const other = summaries('other-model');
    expect(await other.summarize(['Gardening.md', 'Atomic notes.md'])).toMatchObject({
      notes: 2,
      summarized: 2,
      cached: 0,
    });
    expect(server.chatRequests.slice(3).map((request) => request.model)).toEqual([
      'other-model',
      'other-model',
    ]);
    expect(requestedTitles(3)).toEqual(['Atomic notes', 'Gardening']);
    expect(other.summaryFor('Gardening.md')?.text).toBe('Gardening in brief, per other-model.');
    expect(other.summaryFor('Zettelkasten method.md')?.source).toBe('extract');
    expect(summaries().summaryFor('Gardening.md')?.text).toBe('Gardening in brief, per scripted-model.');
  });

  it('count a server error as a failure, cache nothing for it and retry it on the next run', async () => {
    server.script((request) =>
      titleOf(request) === 'Gardening'
        ? {
            fault: 'status',
            status: 500,
            retryAfterSeconds: 0,
            body: { error: { message: 'model crashed' } },
          }
        : { text: `${titleOf(request)} in brief.` },
    );
    const queue = summaries();
    const report = await queue.summarize();
    expect(report).toMatchObject({ summarized: 2, failed: 1 });
    expect(report.firstError).toMatch(/^Gardening\.md: .*500.*model crashed/);
    // The provider layer retries a 500 itself; each of the other notes still cost exactly one call.
    expect(requestedTitles().filter((title) => title !== 'Gardening')).toEqual([
      'Atomic notes',
      'Zettelkasten method',
    ]);
    expect(queue.summaryFor('Gardening.md')).toEqual({
      text: 'Tomatoes need sun and water.',
      source: 'extract',
    });

    const before = server.chatRequests.length;
    server.script((request) => ({ text: `${titleOf(request)} in brief.` }));
    expect(await queue.summarize()).toMatchObject({ summarized: 1, cached: 2, failed: 0, firstError: null });
    expect(requestedTitles(before)).toEqual(['Gardening']);
    expect(queue.summaryFor('Gardening.md')).toEqual({ text: 'Gardening in brief.', source: 'llm' });
  });

  it('stop at once when cancelled, with the calls in flight aborted and nothing counted as failed', async () => {
    server.script(() => ({ fault: 'hang' }));
    const progress: SummaryProgress[] = [];
    const queue = summaries('scripted-model', (update) => progress.push(update));
    const running = queue.summarize();
    // Two calls in flight (the default concurrency); the third note waits for a free slot.
    await waitFor(() => server.chatRequests.length === 2, 5000, 'two summary requests');
    queue.cancel();

    expect(await running).toMatchObject({ summarized: 0, failed: 0, cancelled: true });
    expect(progress.at(-1)).toEqual({ state: 'cancelled', done: 0, total: 3, failed: 0, firstError: null });
    expect(server.chatRequests).toHaveLength(2);
  });
});
