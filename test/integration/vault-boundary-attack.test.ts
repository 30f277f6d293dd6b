import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { messageText } from '../../src/shared/chat-domain';
import { kasten } from '../support/run-cli';
import { createIndexedApp, startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace, waitFor } from '../support/temp-vault';

// What lies outside the vault: no byte of it may reach a search result, a read or the model.
const canary = 'CANARY-5d1e-outside root:x:0:0:root:/root:/bin/bash';
const canaryWord = 'CANARY';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspaceWithOutside() {
  const ws = tempWorkspace('chat');
  cleanups.push(ws.remove);
  const outside = join(ws.base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'passwd.md'), `# Passwords\n\n${canary}\n`);
  writeFileSync(join(outside, 'Gardening.md'), `# Gardening\n\n${canary}\n`);
  return { ws, outside };
}

async function modelServer(): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer();
  cleanups.push(() => server.stop());
  return server;
}

function modelOptions(server: ScriptedModelServer) {
  return {
    model: {
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
      model: 'scripted-model',
      apiKeyEnv: null,
    },
  } as const;
}

/** Every text a search for the canary's words finds, with its snippet. */
async function searchTexts(app: KastenApp): Promise<string> {
  const found = [];
  for (const query of ['root', canaryWord, 'bash', 'Passwords'])
    found.push(...(await app.handlers['search:notes']({ query, limit: 50 })));
  return JSON.stringify(found);
}

/** Every note read by path: what a read returns, or its error. */
async function readText(app: KastenApp, path: string): Promise<string> {
  try {
    return JSON.stringify(await app.handlers['notes:read']({ path }));
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Swaps a vault folder for a symlink to a folder outside and back, as fast as it can, in another
 * process, until killed: the race between checking a path and reading it.
 */
function startSwapping(folder: string, outsideFolder: string): ChildProcess {
  const script = `
    const { renameSync, symlinkSync } = require('node:fs');
    const [folder, outside] = process.argv.slice(1);
    symlinkSync(outside, folder + '.link');
    for (;;) {
      renameSync(folder, folder + '.real');
      renameSync(folder + '.link', folder);
      renameSync(folder, folder + '.link');
      renameSync(folder + '.real', folder);
    }`;
  const child = spawn(process.execPath, ['-e', script, folder, outsideFolder], { stdio: 'ignore' });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  return child;
}

describe('the vault boundary under attack', () => {
  it('symlinks created or swapped in while the vault is watched never bring outside text in', async () => {
    const { ws, outside } = workspaceWithOutside();
    const server = await modelServer();
    const app = await startIndexedApp(ws.dataDir, ws.vault, { watch: true, ...modelOptions(server) });
    cleanups.push(() => app.dispose());

    // A new note that is a symlink to a file outside, a note replaced by one in place, another
    // replaced by an atomic rename, and a folder that is a symlink to a folder outside.
    symlinkSync(join(outside, 'passwd.md'), join(ws.vault, 'late.md'));
    unlinkSync(join(ws.vault, 'Gardening.md'));
    symlinkSync(join(outside, 'Gardening.md'), join(ws.vault, 'Gardening.md'));
    symlinkSync(join(outside, 'passwd.md'), join(ws.vault, 'swap.tmp'));
    renameSync(join(ws.vault, 'swap.tmp'), join(ws.vault, 'Atomic notes.md'));
    symlinkSync(outside, join(ws.vault, 'late-folder'));

    const skipped = () =>
      app.index
        .health()
        .warnings.filter(
          (warning) => warning.message === 'Skipped: is a symlink that leads outside the vault.',
        )
        .map((warning) => warning.path)
        .sort();
    await waitFor(
      () => skipped().length === 4,
      10_000,
      'the three symlinked notes and the folder to be skipped with a warning each',
    );
    expect(skipped()).toEqual(['Atomic notes.md', 'Gardening.md', 'late-folder', 'late.md']);
    // The notes that became symlinks left the index and the tree.
    expect(app.index.note('Gardening.md')).toBeNull();
    const tree = JSON.stringify(await app.handlers['vault:tree'](undefined));
    expect(tree).not.toContain('late.md');
    expect(tree).not.toContain('Gardening.md');

    expect(await searchTexts(app)).not.toContain(canaryWord);
    for (const path of ['late.md', 'Gardening.md', 'Atomic notes.md', 'late-folder/passwd.md']) {
      const read = await readText(app, path);
      expect(read, path).not.toContain(canaryWord);
      expect(read, path).toMatch(/leads outside the vault|does not exist|ignores/);
    }

    // The model searches and reads every way it can; nothing from outside reaches it.
    server.script([
      { toolCalls: [{ name: 'search_notes', arguments: { query: 'root bash passwords' } }] },
      {
        toolCalls: [
          { name: 'read_note', arguments: { note: 'late.md' } },
          { name: 'read_note', arguments: { note: 'Gardening' } },
          { name: 'read_note', arguments: { note: 'late-folder/passwd.md' } },
          { name: 'read_note', arguments: { note: 'Atomic notes.md' } },
        ],
      },
      { text: 'Nothing found.' },
    ]);
    const turn = await app.chat.send({ text: 'What is in [[late]] and [[Gardening]]?' });
    const answer = await turn.done;
    expect(answer.status).toBe('complete');
    expect(messageText(answer)).toBe('Nothing found.');
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain(canaryWord);

    // Deleting the symlink takes its warning away.
    unlinkSync(join(ws.vault, 'late.md'));
    await waitFor(() => skipped().length === 3, 10_000, 'the warning about late.md to go');
  });

  it('a folder swapped for a symlink while notes are read never leaks what is outside', async () => {
    const { ws, outside } = workspaceWithOutside();
    const inside = join(ws.vault, 'sub');
    mkdirSync(inside);
    writeFileSync(join(inside, 'passwd.md'), '# Passwords\n\nNothing secret here.\n');
    const app = await startIndexedApp(ws.dataDir, ws.vault);
    cleanups.push(() => app.dispose());

    startSwapping(inside, outside);
    let leaked = 0;
    let readInside = 0;
    for (let attempt = 0; attempt < 3000; attempt++) {
      const text = await readText(app, 'sub/passwd.md');
      if (text.includes(canaryWord)) leaked++;
      if (text.includes('Nothing secret here')) readInside++;
    }
    expect(leaked).toBe(0);
    // The race ran: some reads found the real folder in place.
    expect(readInside).toBeGreaterThan(0);
  });

  it('a folder swapped for a symlink during cold index passes stores nothing from outside', async () => {
    const { ws, outside } = workspaceWithOutside();
    const inside = join(ws.vault, 'sub');
    mkdirSync(inside);
    for (let n = 0; n < 60; n++) {
      writeFileSync(join(inside, `note ${n}.md`), `# Note ${n}\n\nAn ordinary note about trees.\n`);
      writeFileSync(join(outside, `note ${n}.md`), `# Note ${n}\n\n${canary}\n`);
    }
    startSwapping(inside, outside);

    let indexedInside = 0;
    for (let pass = 0; pass < 12; pass++) {
      const dataDir = join(ws.base, `data-${pass}`);
      const app = createIndexedApp(dataDir, ws.vault);
      try {
        await app.start();
        await app.index.whenIdle();
        expect(await searchTexts(app), `pass ${pass}`).not.toContain(canaryWord);
        const stored = app.index
          .database()
          .prepare("SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH 'CANARY'")
          .get() as { n: number };
        expect(stored.n, `pass ${pass}`).toBe(0);
        indexedInside += app.index.status().report?.notes ?? 0;
      } finally {
        await app.dispose();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    expect(indexedInside).toBeGreaterThan(0);
    // Twelve cold indexes of their own app each: more than the default limit on a busy machine.
  }, 90_000);
});

/** A path whose last part is the bytes given: names that are not valid UTF-8 can only be made so. */
function byteName(folder: string, ...bytes: number[]): Buffer {
  return Buffer.concat([Buffer.from(`${folder}/`), Buffer.from(bytes)]);
}

describe('names that are not valid UTF-8', () => {
  it('a folder and a note so named are skipped with one warning each; the rest of the vault works', async () => {
    const ws = tempWorkspace('chat');
    cleanups.push(ws.remove);
    // "bad\xff" and "note\xfe.md": Latin-1 bytes left by an old archive tool.
    const folder = byteName(ws.vault, 0x62, 0x61, 0x64, 0xff);
    mkdirSync(folder);
    writeFileSync(Buffer.concat([folder, Buffer.from('/Inside.md')]), '# Inside\n');
    writeFileSync(byteName(ws.vault, 0x6e, 0x6f, 0x74, 0x65, 0xfe, 0x2e, 0x6d, 0x64), '# Odd\n');

    const index = await kasten('index', ws.vault, '--json', '--data-dir', ws.dataDir);
    expect(index.err).toBe('');
    expect(index.code).toBe(0);
    const report = JSON.parse(index.out);
    expect(report.notes).toBe(3);
    expect(report.warnings).toEqual([
      { path: 'bad\uFFFD', message: expect.stringMatching(/not valid UTF-8.*rename it/) },
      { path: 'note\uFFFD.md', message: expect.stringMatching(/not valid UTF-8.*rename it/) },
    ]);
    for (const argv of [
      ['links', ws.vault],
      ['search', ws.vault, 'links'],
      ['backlinks', ws.vault, 'Atomic notes'],
    ]) {
      const run = await kasten(...argv, '--data-dir', ws.dataDir);
      expect(run.code, argv.join(' ')).toBe(0);
    }
    const search = await kasten('search', ws.vault, 'links', '--json', '--data-dir', ws.dataDir);
    expect(JSON.parse(search.out).length).toBeGreaterThan(0);
  });

  it('names so made while the vault is watched do not stop the watcher, and are listed on the next open', async () => {
    const ws = tempWorkspace('chat');
    cleanups.push(ws.remove);
    const app = await startIndexedApp(ws.dataDir, ws.vault, { watch: true });
    const folder = byteName(ws.vault, 0x62, 0x61, 0x64, 0xff);
    mkdirSync(folder);
    writeFileSync(Buffer.concat([folder, Buffer.from('/Inside.md')]), '# Inside\n');
    writeFileSync(byteName(ws.vault, 0x6e, 0x6f, 0x74, 0x65, 0xfe, 0x2e, 0x6d, 0x64), '# Odd\n');
    writeFileSync(join(ws.vault, 'After.md'), '# After\n\nWritten after the odd names.\n');

    // The watcher reports no event for a name it cannot turn into a path; the others go on.
    await waitFor(() => app.index.note('After.md') !== null, 10_000, 'the note written after to be indexed');
    const tree = JSON.stringify(await app.handlers['vault:tree'](undefined));
    expect(tree).toContain('After.md');
    expect(tree).not.toContain('\uFFFD');
    await app.dispose();

    const reopened = await startIndexedApp(ws.dataDir, ws.vault, { watch: true });
    cleanups.push(() => reopened.dispose());
    expect(reopened.index.health().warnings.map((warning) => warning.path)).toEqual([
      'bad\uFFFD',
      'note\uFFFD.md',
    ]);
    expect(reopened.index.report().notes).toBe(4);
  });
});
