import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { AppError } from '../../src/main/app-error';
import { noteHash } from '../../src/main/vault/note-writes';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

const support = join(import.meta.dirname, '..', 'support');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A helper process from test/support, running until the stop file appears (or its own bounds):
 * resolves once it is at work; `stop()` resolves with what it reports last.
 */
async function startHelper(script: string, stopFile: string, args: string[]) {
  const child = fork(join(support, script), [...args.slice(0, 2), stopFile, ...args.slice(2)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  const report = new Promise<Record<string, unknown>>((resolve) =>
    child.on('message', (message: Record<string, unknown>) => {
      if (!message.ready) resolve(message);
    }),
  );
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  return {
    async stop() {
      writeFileSync(stopFile, '');
      const last = await report;
      await exited;
      return last;
    },
  };
}

/** Runs a write; a refusal must be an AppError (a message the user can read), counted by its kind. */
function attempts() {
  const refused: Record<string, number> = {};
  const unplain: string[] = [];
  return {
    refused,
    unplain,
    async run<T>(write: () => Promise<T>): Promise<T | null> {
      try {
        return await write();
      } catch (error) {
        if (error instanceof AppError) refused[error.code] = (refused[error.code] ?? 0) + 1;
        else unplain.push(String(error));
        return null;
      }
    },
  };
}

async function appIn(workspace: ReturnType<typeof tempWorkspace>, options = {}): Promise<KastenApp> {
  const app = await startIndexedApp(workspace.dataDir, workspace.vault, options);
  cleanups.push(() => app.dispose());
  return app;
}

const lines = (path: string) => new Set(readFileSync(path, 'utf8').split('\n'));

describe('vault writes racing a folder exchanged for a symlink', () => {
  it('500 creates, 500 appends and 50 exports in the folder write nothing outside the vault', async () => {
    const workspace = tempWorkspace('chat');
    cleanups.push(workspace.remove);
    const outside = join(workspace.base, 'outside');
    const sub = join(workspace.vault, 'sub');
    mkdirSync(outside);
    mkdirSync(sub);
    writeFileSync(join(sub, 'a.md'), '# A\n\n');
    symlinkSync(outside, join(workspace.base, 'sub-link'));
    const server = await startScriptedModelServer();
    cleanups.push(() => server.stop());
    const app = await appIn(workspace, {
      model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' },
    });
    server.script([{ text: 'Compost needs air.' }]);
    const { sessionId } = await (await app.chat.send({ text: 'How does compost work?' })).done;

    const swapper = await startHelper('folder-swapper.mjs', join(workspace.base, 'stop'), [
      sub,
      join(workspace.base, 'sub-link'),
      '100000000',
      '120000',
    ]);
    const writes = attempts();
    const created: string[] = [];
    const appended: string[] = [];
    const exported: string[] = [];
    for (let n = 0; n < 500; n++) {
      const content = `# Created ${n}\n`;
      const create = await writes.run(async () => {
        const write = await app.vault.prepareCreate(`sub/created ${n}.md`, content);
        await write.commit();
        return write.change.path;
      });
      if (create) created.push(create);
      const line = `appended-${n}`;
      const append = await writes.run(async () => {
        await (await app.vault.prepareAppend('sub/a.md', line, null)).commit();
        return line;
      });
      if (append) appended.push(append);
      if (n % 10 === 0) {
        const update = exported.length % 2 === 1;
        const result = await writes.run(() => app.exporter.export({ sessionId, folder: 'sub', update }));
        if (result) exported.push(result.path);
      }
    }
    const { swaps } = await swapper.stop();

    console.log('folder exchange race', {
      swaps,
      created: created.length,
      appended: appended.length,
      exported: exported.length,
      refused: writes.refused,
      unplain: writes.unplain.length,
      outside: readdirSync(outside).length,
    });
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(join(workspace.base, 'sub-link'))).toEqual([]);
    expect(writes.unplain).toEqual([]);
    for (const path of created)
      expect(readFileSync(join(workspace.vault, path), 'utf8')).toMatch(/^# Created/);
    const note = lines(join(sub, 'a.md'));
    expect(appended.filter((line) => !note.has(line))).toEqual([]);
    for (const path of exported)
      expect(readFileSync(join(workspace.vault, path), 'utf8')).toContain('compost');
    expect(created.length + appended.length + exported.length).toBeGreaterThan(0);
  }, 240_000);
});

/** The vault's note `Edited.md` holding `content`, the app on the vault, and an editor saving the note. */
async function editedNote(style: string, content: string) {
  const workspace = tempWorkspace('chat');
  cleanups.push(workspace.remove);
  const note = join(workspace.vault, 'Edited.md');
  writeFileSync(note, content);
  const app = await appIn(workspace);
  const editor = await startHelper('note-editor.mjs', join(workspace.base, 'stop'), [
    note,
    style,
    '1000000',
    '120000',
  ]);
  return { note, app, editor };
}

describe.each(['in-place', 'exchange', 'rename'])('appends while an editor saves (%s)', (style) => {
  it('no editor save that reached the note is lost, nor an append reported written', async () => {
    const { note, app, editor } = await editedNote(style, '# Edited\n\n');
    const writes = attempts();
    const appended: string[] = [];
    for (let n = 0; n < 500; n++) {
      const line = `appended-${n}`;
      const append = await writes.run(async () => {
        await (await app.vault.prepareAppend('Edited.md', line, null)).commit();
        return line;
      });
      if (append) appended.push(append);
    }
    const { saves } = (await editor.stop()) as { saves: { marker: string; displaced: boolean }[] };

    const final = lines(note);
    const kept = saves.filter((save) => !save.displaced);
    const lostSaves = kept.filter((save) => !final.has(save.marker)).map((save) => save.marker);
    const lostAppends = appended.filter((line) => !final.has(line));
    console.log(`editor ${style}`, {
      saves: saves.length,
      savesIntoDisplacedFile: saves.length - kept.length,
      displacedSavesLost: saves.filter((save) => save.displaced && !final.has(save.marker)).length,
      lostSaves: lostSaves.length,
      appended: appended.length,
      lostAppends: lostAppends.length,
      refused: writes.refused,
    });
    expect(writes.unplain).toEqual([]);
    expect(lostSaves).toEqual([]);
    // An editor that renames its file over the note without looking discards whatever was written
    // since it read: appends among them, which no writer can prevent.
    if (style !== 'rename') expect(lostAppends).toEqual([]);
    expect(appended.length).toBeGreaterThan(0);
  }, 240_000);
});

describe.each(['in-place', 'exchange'])('edits and their undos while an editor saves (%s)', (style) => {
  it('no editor save that reached the note is lost, by an edit or by an undo', async () => {
    const { note, app, editor } = await editedNote(style, '# Edited\n\ncounter: 0\n\n');
    const writes = attempts();
    let edits = 0;
    let undos = 0;
    for (let n = 0; n < 300; n++) {
      const committed = await writes.run(async () => {
        const counter = /counter: (\d+)/.exec(readFileSync(note, 'utf8'))![1]!;
        const edit = await app.vault.prepareEdit(
          'Edited.md',
          { passage: `counter: ${counter}` },
          `counter: ${n + 1}`,
        );
        return edit.commit();
      });
      if (!committed) continue;
      edits++;
      // Every other edit is undone at once: refused when a save landed since, else its bytes put back.
      if (n % 2 === 0) {
        const restored = await writes.run(() =>
          app.vault.restoreNote(committed.path, committed.previous, noteHash(committed.written)),
        );
        if (restored !== null) undos++;
      }
    }
    const { saves } = (await editor.stop()) as { saves: { marker: string; displaced: boolean }[] };

    const final = lines(note);
    const lostSaves = saves
      .filter((save) => !save.displaced && !final.has(save.marker))
      .map((save) => save.marker);
    console.log(`edits and undos, editor ${style}`, {
      saves: saves.length,
      edits,
      undos,
      lostSaves: lostSaves.length,
      refused: writes.refused,
    });
    expect(writes.unplain).toEqual([]);
    expect(lostSaves).toEqual([]);
    expect(edits).toBeGreaterThan(0);
  }, 240_000);
});
