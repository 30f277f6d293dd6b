import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { messageText } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import { startScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace, waitFor } from '../support/temp-vault';

// What ignored folders hold: a credential in git's config and a plugin's code.
const credential = 'https://kasten-bot:ghp_CANARY0123456789abcdef@github.com/kasten/notes.git';
const pluginCode = 'const pluginToken = "PLUGINCANARY-7f3a";';
const secretWords = ['ghp_CANARY', 'kasten-bot', 'PLUGINCANARY'];
const links = {
  'cfg.md': join('.git', 'config'),
  'Plugin notes.md': join('.obsidian', 'plugins', 'x', 'main.js'),
};
const ignoredReason =
  'Skipped: is a symlink into a folder Kasten ignores (a dot-folder such as .git or .obsidian, or node_modules).';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspaceWithIgnoredFiles() {
  const ws = tempWorkspace('chat');
  cleanups.push(ws.remove);
  mkdirSync(join(ws.vault, '.git'));
  writeFileSync(join(ws.vault, '.git', 'config'), `[remote "origin"]\n\turl = ${credential}\n`);
  mkdirSync(join(ws.vault, '.obsidian', 'plugins', 'x'), { recursive: true });
  writeFileSync(join(ws.vault, '.obsidian', 'plugins', 'x', 'main.js'), `${pluginCode}\n`);
  return ws;
}

/** Relative links, as a user or a sync tool makes them. */
function linkNotes(vault: string): void {
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(vault, name));
}

async function startApp(vault: string, dataDir: string) {
  const server = await startScriptedModelServer();
  cleanups.push(() => server.stop());
  const app = await startIndexedApp(dataDir, vault, {
    watch: true,
    model: { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'scripted', apiKeyEnv: null },
  });
  cleanups.push(() => app.dispose());
  return { app, server };
}

const skippedAsIgnored = (app: KastenApp) =>
  app.index
    .health()
    .warnings.filter((warning) => warning.message === ignoredReason)
    .map((warning) => warning.path)
    .sort();

/** Nothing of the ignored files is indexed, found, read by path or given to the model through read_note. */
async function expectNothingLeaks(app: KastenApp, server: Awaited<ReturnType<typeof startApp>>['server']) {
  for (const path of Object.keys(links)) expect(app.index.note(path), path).toBeNull();
  const tree = JSON.stringify(await app.handlers['vault:tree'](undefined));
  expect(tree).not.toContain('cfg.md');
  for (const query of ['kasten-bot', 'github', 'pluginToken', 'remote origin']) {
    const found = JSON.stringify(await app.handlers['search:notes']({ query, limit: 50 }));
    for (const word of secretWords) expect(found, query).not.toContain(word);
  }
  for (const path of Object.keys(links)) {
    await expect(app.handlers['notes:read']({ path }), path).rejects.toThrow(
      `"${path}" is a symlink into a folder Kasten ignores`,
    );
  }

  server.script([
    {
      toolCalls: [
        { name: 'read_note', arguments: { note: 'cfg.md' } },
        { name: 'read_note', arguments: { note: 'Plugin notes.md' } },
      ],
    },
    { text: 'Nothing there.' },
  ]);
  const answer = await (await app.chat.send({ text: 'What is in cfg.md and Plugin notes.md?' })).done;
  expect(messageText(answer)).toBe('Nothing there.');
  const sent = JSON.stringify(server.requests.map((request) => request.body));
  // The tool answers with the plain reason, as the model's request carries it back.
  expect(sent.match(/"role":"tool"[^}]*/g)).toEqual(
    Object.keys(links).map((path) =>
      expect.stringContaining(`${path}\\" is a symlink into a folder Kasten ignores`),
    ),
  );
  for (const word of secretWords) expect(sent).not.toContain(word);
}

describe('notes that are symlinks into ignored folders', () => {
  it('are skipped by the scan with a reason, and nothing of .git/config or a plugin reaches a search, a read or the model', async () => {
    const ws = workspaceWithIgnoredFiles();
    linkNotes(ws.vault);
    const { app, server } = await startApp(ws.vault, ws.dataDir);
    expect(skippedAsIgnored(app)).toEqual(['Plugin notes.md', 'cfg.md']);
    await expectNothingLeaks(app, server);
  });

  it('made while the vault is watched, are skipped with the same reason and leak nothing', async () => {
    const ws = workspaceWithIgnoredFiles();
    const { app, server } = await startApp(ws.vault, ws.dataDir);
    linkNotes(ws.vault);
    await waitFor(() => skippedAsIgnored(app).length === 2, 10_000, 'both links to be skipped as ignored');
    expect(skippedAsIgnored(app)).toEqual(['Plugin notes.md', 'cfg.md']);
    await expectNothingLeaks(app, server);
  });
});
