import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { startScriptedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

// Context items are sized before the session context exists (it plans with them), with the count and
// room of its engine: what they show must be what the session context says.
let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp;

const body = Array(8)
  .fill('Answer in one short paragraph, and name the notes you used by their titles.')
  .join(' ');

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  mkdirSync(join(workspace.vault, '_kasten/rules'), { recursive: true });
  writeFileSync(join(workspace.vault, '_kasten/rules/Be brief.md'), body);
  server = await startScriptedModelServer();
  app = await startScriptedApp(workspace, server.url, 4096);
});

afterEach(async () => {
  await app.dispose();
  await server.stop();
  workspace.remove();
});

describe('context items and the session context', () => {
  it('count a rule as the session context counts its text', async () => {
    const [rule] = await app.handlers['rules:list'](undefined);
    expect(rule?.name).toBe('Be brief');
    expect(rule?.tokens).toBe(app.context.tokensOf(`## Rule: Be brief\n\n${body}`));
  });

  it('refuse a file past the room the session context gives one attachment', async () => {
    const room = await app.context.attachmentRoom();
    const big = 'A long line of text that keeps going. '.repeat(2_000);
    const refused = app.handlers['attachments:prepare']({
      name: 'big.txt',
      data: Buffer.from(big).toString('base64'),
    });
    const figure = (tokens: number) => tokens.toLocaleString('en-US');
    await expect(refused).rejects.toThrow(
      `one file may take at most ${figure(room.tokens)} of this model's ${figure(room.window)}-token window`,
    );
  });
});
