import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatStore } from '../../src/main/chat/chat-store';
import { runChatCommand } from '../../src/main/hosts/cli-chat-commands';
import { openAppDatabase } from '../../src/main/storage/app-database';
import { builtIndexWorker } from '../support/built-worker';
import { kasten } from '../support/run-cli';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { resourcesDir, tempWorkspace } from '../support/temp-vault';
import { nextPending, snapshot, toolCalls } from '../support/write-approvals';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.stop();
  workspace.remove();
});

const model = () =>
  ({ provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted-model' }) as const;

/** `kasten ask` as cli.ts runs it, with `--allow-writes` or without, and `--json` or not. */
async function ask(question: string, options: { allowWrites: boolean; json?: boolean }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runChatCommand(
    {
      command: 'ask',
      vault: workspace.vault,
      question,
      json: options.json ?? false,
      model: model(),
      ...options,
    },
    {
      dataDir: workspace.dataDir,
      resourcesDir,
      indexWorker: builtIndexWorker,
      stdout: (text) => out.push(text),
      write: (text) => out.push(text),
      stderr: (text) => err.push(text),
      untilStopped: () => new Promise<void>(() => {}),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const creation = { path: 'Inbox/Seeds.md', content: '# Seeds\n\nOrder tomato seeds in March.\n' };

describe('kasten ask', () => {
  it('without --allow-writes offers no write tools and refuses a write call; nothing changes', async () => {
    const before = snapshot(workspace.vault);
    server.script([
      { toolCalls: [{ name: 'create_note', arguments: creation }] },
      { text: 'I may not write here.' },
    ]);
    const { code, out } = await ask('Note the seeds.', { allowWrites: false, json: true });

    expect(code).toBe(0);
    const report = JSON.parse(out) as { toolCalls: { ok: boolean }[]; changes: unknown[] };
    expect(report.toolCalls).toEqual([expect.objectContaining({ name: 'create_note', ok: false })]);
    expect(report.changes).toEqual([]);
    expect(JSON.stringify(server.chatRequests[0]!.tools)).not.toContain('create_note');
    expect(JSON.stringify(server.chatRequests[1]!.messages)).toContain(
      'Writing to the vault is not allowed here (kasten ask runs without --allow-writes)',
    );
    expect(snapshot(workspace.vault)).toEqual(before);
  });

  it('with --allow-writes writes each change at once and prints it', async () => {
    server.script([
      {
        toolCalls: [
          { name: 'create_note', arguments: creation },
          {
            name: 'append_to_note',
            arguments: { note: 'Gardening', content: 'Basil likes warmth.' },
          },
          {
            name: 'edit_note',
            arguments: { note: 'Gardening', passage: 'sun and water', replacement: 'full sun and water' },
          },
        ],
      },
      { text: 'All written.' },
    ]);
    const { code, out } = await ask('Note the seeds and the basil.', { allowWrites: true });

    expect(code).toBe(0);
    expect(JSON.stringify(server.chatRequests[0]!.tools)).toContain('append_to_note');
    expect(readFileSync(join(workspace.vault, 'Inbox/Seeds.md'), 'utf8')).toBe(creation.content);
    expect(readFileSync(join(workspace.vault, 'Gardening.md'), 'utf8')).toBe(
      '# Gardening\n\nTomatoes need full sun and water.\n\nBasil likes warmth.\n',
    );
    expect(out).toContain('Created Inbox/Seeds.md:\n  # Seeds\n\n  Order tomato seeds in March.');
    expect(out).toContain('Appended to Gardening.md at the end (from line 4):\n  +\n  + Basil likes warmth.');
    expect(out).toContain(
      'Edited Gardening.md in the section "Gardening" (from line 1):\n  # Gardening\n\n  Tomatoes need {+full +}sun and water.\n\n  Basil likes warmth.',
    );
    expect(out).toMatch(/kasten undo <vault> --session [\w-]+ takes these changes back\./);
  });

  it('parses --allow-writes on the command line', async () => {
    server.script([{ toolCalls: [{ name: 'create_note', arguments: creation }] }, { text: 'Written.' }]);
    const { code, out } = await kasten(
      ...['ask', workspace.vault, 'Note the seeds.', '--allow-writes', '--data-dir', workspace.dataDir],
      ...['--base-url', `${server.url}/v1`, '--model', 'scripted-model'],
    );
    expect(code).toBe(0);
    expect(out).toContain('Created Inbox/Seeds.md:');
    expect(readFileSync(join(workspace.vault, 'Inbox/Seeds.md'), 'utf8')).toBe(creation.content);
  });
});

describe('an answer waiting for approval', () => {
  it('is saved with the change pending, and once its writer is gone is marked interrupted; nothing is written', async () => {
    const before = snapshot(workspace.vault);
    const app = await startIndexedApp(workspace.dataDir, workspace.vault, { model: model(), writes: 'ask' });
    try {
      await app.handlers['writes:configure']({ enabled: true });
      server.script([{ toolCalls: [{ name: 'create_note', arguments: creation }] }]);
      const pending = nextPending(app);
      await app.chat.send({ text: 'Note the seeds.' });
      const { message } = await pending;

      // Another process reads the same database and finds this answer's writer gone (its lease expired).
      const db = openAppDatabase(workspace.dataDir);
      try {
        const store = new ChatStore(db);
        const saved = () => store.session(message.sessionId).messages[1]!;
        await expect.poll(() => toolCalls(saved())[0]?.approval?.state).toBe('pending');
        store.streaming.markInterrupted(() => true);
        expect(saved().status).toBe('interrupted');
        expect(toolCalls(saved())[0]).toMatchObject({
          ok: false,
          output: 'Kasten stopped while the change waited for approval; nothing was written.',
          approval: { state: 'interrupted', change: { kind: 'create', path: 'Inbox/Seeds.md' } },
        });
      } finally {
        db.close();
      }
    } finally {
      await app.dispose();
    }
    expect(snapshot(workspace.vault)).toEqual(before);
  });

  it('the switch is kept per vault, by its path', async () => {
    const app = await startIndexedApp(workspace.dataDir, workspace.vault, { model: model(), writes: 'ask' });
    try {
      expect(await app.handlers['writes:status'](undefined)).toEqual({
        vault: workspace.vault,
        enabled: false,
      });
      await app.handlers['writes:configure']({ enabled: true });
      const other = tempWorkspace('basic');
      try {
        await app.vault.open(other.vault);
        expect(await app.handlers['writes:status'](undefined)).toEqual({
          vault: other.vault,
          enabled: false,
        });
        await app.vault.open(workspace.vault);
        expect(await app.handlers['writes:status'](undefined)).toEqual({
          vault: workspace.vault,
          enabled: true,
        });
      } finally {
        other.remove();
      }
    } finally {
      await app.dispose();
    }
  });
});
