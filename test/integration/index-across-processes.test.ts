import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { WriterLock, readWriterState, type WriterState } from '../../src/main/index/writer-lock';
import { openReader } from '../../src/main/storage/database';
import { indexFileFor } from '../../src/main/storage/index-database';
import type { SearchHit } from '../../src/shared/index-domain';
import { startIndexedApp } from '../support/indexed-app';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { writeSyntheticVault } from '../support/synthetic-vault';
import { tempWorkspace, waitFor } from '../support/temp-vault';

const repoRoot = join(import.meta.dirname, '..', '..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace() {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  return ws;
}

async function serve(vault: string, dataDir: string): Promise<RunningServer> {
  const server = await startKastenServer({ vault, dataDir, args: ['--no-summaries'] });
  cleanups.push(() => server.stop());
  return server;
}

async function indexed(dataDir: string, vault: string): Promise<KastenApp> {
  const app = await startIndexedApp(dataDir, vault);
  cleanups.push(() => app.dispose());
  return app;
}

/** Runs the built `kasten` command as a user would, in a process of its own. */
function kastenProcess(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['bin/kasten.js', ...args], { cwd: repoRoot });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

/** A synthetic vault with the word "quokka" in five notes across its folders, the only ones that hold it. */
function vaultWithQuokkas(root: string, notes: number): string[] {
  writeSyntheticVault(root, { notes, seed: 29 });
  const quokkas = ['Quokka sighting.md', 'concepts/Quokka facts.md', 'projects/beta/zz/Quokka trip.md'];
  quokkas.push('archive/2024/Quokka archive.md', 'people/Quokka keeper.md');
  for (const path of quokkas) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), `# ${path}\n\nA quokka, seen once. See [[Quokka sighting]].\n`);
  }
  return quokkas.sort();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const paths = (hits: { path: string }[]) => hits.map((hit) => hit.path).sort();

/** Resolves with the state the writer of `indexFile` publishes once `predicate` holds for it. */
async function writerState(
  indexFile: string,
  predicate: (state: WriterState) => boolean,
  timeoutMs = 30_000,
) {
  let state: WriterState | null = null;
  await waitFor(
    () => (state = readWriterState(indexFile)) !== null && predicate(state),
    timeoutMs,
    'the writer state',
  );
  return state!;
}

describe('one index per vault across processes', () => {
  it('kasten search started during kasten serve’s cold index waits for it, then answers from the same index', async () => {
    const ws = workspace();
    const quokkas = vaultWithQuokkas(ws.vault, 5000);
    const indexFile = indexFileFor(ws.dataDir, ws.vault);
    const server = await serve(ws.vault, ws.dataDir);
    const writing = await writerState(indexFile, (state) => state.pid === server.pid);
    await waitFor(() => existsSync(indexFile), 10_000, 'the index file');
    const inode = statSync(indexFile).ino;

    const search = await kastenProcess('search', ws.vault, 'quokka', '--json', '--data-dir', ws.dataDir);
    expect(search.err).toContain(
      `Another Kasten process (pid ${server.pid}) is indexing this vault; this one waits for it and reads its index.`,
    );
    expect(search.code).toBe(0);
    expect(paths(JSON.parse(search.out) as SearchHit[])).toEqual(quokkas);

    // The host answers the same from the same index, written once, by the host alone.
    const token = new URL(server.url).searchParams.get('token')!;
    const response = await fetch(`${server.origin}/api/search:notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: 'quokka', mode: 'lexical' }),
    });
    const body = (await response.json()) as { ok: true; value: SearchHit[] } | { ok: false };
    expect(body.ok && paths(body.value)).toEqual(quokkas);
    expect(statSync(indexFile).ino).toBe(inode);
    const after = readWriterState(indexFile);
    expect(after).toMatchObject({ writer: writing.writer, pid: server.pid, progress: { state: 'idle' } });
    expect(server.output()).not.toMatch(/rebuilt|interrupted/);
  }, 120_000);

  it('a second app follows the first one’s index, and writes it once the first one closes', async () => {
    const ws = workspace();
    writeSyntheticVault(ws.vault, { notes: 300, seed: 3 });
    const indexFile = indexFileFor(ws.dataDir, ws.vault);
    // Disposed by the test itself, part-way.
    const first = await startIndexedApp(ws.dataDir, ws.vault, { watch: true });
    let firstOpen = true;
    cleanups.push(() => (firstOpen ? first.dispose() : undefined));
    const second = await indexed(ws.dataDir, ws.vault);
    expect([first.index.writes(), second.index.writes()]).toEqual([true, false]);
    expect(second.index.report()).toMatchObject({ notes: first.index.report().notes, parsed: 0 });
    const inode = statSync(indexFile).ino;

    // A note written on disk: the first app's watcher applies it, and the second one says its index changed.
    const followed = new Promise<void>((resolve) => {
      const unsubscribe = second.events.subscribe((channel) => {
        if (channel !== 'index:changed') return;
        void second.index.search({ query: 'wombat' }).then((hits) => {
          if (hits.length === 0) return;
          unsubscribe();
          resolve();
        });
      });
    });
    writeFileSync(join(ws.vault, 'Wombat.md'), '# Wombat\n\nA wombat digs. [[Quokka]]\n');
    await followed;
    expect(paths(await second.index.search({ query: 'wombat' }))).toEqual(['Wombat.md']);
    expect(second.index.resolve({ target: 'Wombat', subpath: null }, '').path).toBe('Wombat.md');

    // The first app closes; a note written meanwhile is found by the second one's catch-up pass.
    await first.dispose();
    firstOpen = false;
    writeFileSync(join(ws.vault, 'Platypus.md'), '# Platypus\n\nA platypus swims. [[Wombat]]\n');
    await waitFor(() => second.index.writes(), 10_000, 'the second app to write the index');
    await second.index.whenIdle();
    expect(paths(await second.index.search({ query: 'platypus' }))).toEqual(['Platypus.md']);
    expect(second.index.backlinks('Wombat.md').map((link) => link.source)).toEqual(['Platypus.md']);
    expect(second.index.health().notices).toEqual([]);
    expect(statSync(indexFile).ino).toBe(inode);
    expect(readWriterState(indexFile)).toMatchObject({ pid: process.pid, progress: { state: 'idle' } });
  }, 60_000);

  it('the lock of a writer that was killed part-way through a cold index is taken over, and the index rebuilt', async () => {
    const ws = workspace();
    const quokkas = vaultWithQuokkas(ws.vault, 3000);
    const indexFile = indexFileFor(ws.dataDir, ws.vault);
    // Started without serve(): a killed host is not to be stopped again.
    const server = await startKastenServer({
      vault: ws.vault,
      dataDir: ws.dataDir,
      args: ['--no-summaries'],
    });
    await writerState(indexFile, ({ pid, progress }) => pid === server.pid && progress.done > 0);
    const reader = openReader(indexFile);
    const committed = () => reader.prepare<[], { n: number }>('SELECT count(*) AS n FROM notes').get()!.n;
    await waitFor(() => committed() > 0, 30_000, 'notes committed by the host');
    reader.close();
    process.kill(server.pid, 'SIGKILL');
    await waitFor(() => !alive(server.pid), 10_000, 'the host to die');
    // What the dead writer left: its state, still saying it indexes.
    expect(readWriterState(indexFile)).toMatchObject({ pid: server.pid, progress: { state: 'indexing' } });

    const search = await kastenProcess('search', ws.vault, 'quokka', '--json', '--data-dir', ws.dataDir);
    expect(search.err).toMatch(
      /Indexing of this vault was interrupted before it finished; .* is being rebuilt\./,
    );
    expect(search.err).not.toContain('Another Kasten process');
    expect(search.code).toBe(0);
    expect(paths(JSON.parse(search.out) as SearchHit[])).toEqual(quokkas);
    // The command let go of the lock when it ended.
    const lock = WriterLock.take(indexFile);
    expect(lock).not.toBeNull();
    lock?.release();
  }, 120_000);

  it('lets one holder at a time have the writer lock, within a process too', () => {
    const ws = workspace();
    const indexFile = indexFileFor(ws.dataDir, ws.vault);
    const first = WriterLock.take(indexFile);
    expect(first).not.toBeNull();
    expect(WriterLock.take(indexFile)).toBeNull();
    expect(readWriterState(indexFile)).toMatchObject({ pid: process.pid, progress: { state: 'indexing' } });
    first?.release();
    expect(readWriterState(indexFile)).toBeNull();
    const second = WriterLock.take(indexFile);
    expect(second).not.toBeNull();
    second?.release();
  });
});
