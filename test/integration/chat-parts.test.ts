import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { answerAbandoned } from '../../src/main/chat/answer-owner';
import { ChatStore } from '../../src/main/chat/chat-store';
import { appMigrations, openAppDatabase } from '../../src/main/storage/app-database';
import { openDatabase } from '../../src/main/storage/database';
import type { MessagePart } from '../../src/shared/chat-domain';
import { startScriptedApp } from '../support/indexed-app';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  workspace = tempWorkspace('chat');
});
afterEach(() => workspace.remove());

describe('an answer is saved part by part', () => {
  let server: ScriptedModelServer;
  let app: KastenApp;

  beforeEach(async () => {
    server = await startScriptedModelServer();
    // Every part written to the database is counted, by position.
    const db = openAppDatabase(workspace.dataDir);
    db.exec(`
      CREATE TABLE part_writes (message_id INTEGER NOT NULL, position INTEGER NOT NULL);
      CREATE TRIGGER count_part_writes AFTER INSERT ON message_parts
        BEGIN INSERT INTO part_writes VALUES (new.message_id, new.position); END;
    `);
    db.close();
    // A window that holds 250 calls a step: this test is about saving, not fitting.
    app = await startScriptedApp(workspace, server.url, 1_000_000);
  });
  afterEach(async () => {
    await app.dispose();
    await server.stop();
  });

  it('an answer of 2,000 tool calls writes each part at most twice: when added and when its tool ran', async () => {
    const calls = Array.from({ length: 250 }, (_, index) => ({
      name: 'resolve_wikilink',
      arguments: { link: `[[Note ${index}]]` },
    }));
    server.script(() => ({ toolCalls: calls, eventsPerWrite: 100 }));

    const answer = await (await app.chat.send({ text: 'Resolve them all.' })).done;

    expect(answer.error).toMatch(/stopped after 8 steps/);
    const stored = app.chat.session(answer.sessionId).messages[1]!;
    expect(stored.parts).toHaveLength(2000);
    expect(stored.parts).toEqual(answer.parts);
    const db = openAppDatabase(workspace.dataDir);
    try {
      const writes = db
        .prepare<[number], { position: number; writes: number }>(
          'SELECT position, count(*) AS writes FROM part_writes WHERE message_id = ? GROUP BY position',
        )
        .all(answer.id);
      expect(writes).toHaveLength(2000);
      expect(Math.max(...writes.map((row) => row.writes))).toBeLessThanOrEqual(2);
    } finally {
      db.close();
    }
  });
});

describe('the migration to parts as rows', () => {
  it('moves the parts of existing messages, which are then read, searched and marked as before', () => {
    const file = join(workspace.dataDir, 'kasten.sqlite');
    const before = openDatabase({ file, migrations: appMigrations.slice(0, 3) });
    const question: MessagePart[] = [
      { type: 'text', step: 0, text: 'What do tomatoes need?' },
      { type: 'context', step: 0, text: 'The note Garden says: sun.' },
    ];
    const answer: MessagePart[] = [
      {
        type: 'tool-call',
        step: 0,
        id: 'call-1',
        name: 'search_notes',
        args: { query: 'tomato' },
        ok: true,
        output: '[]',
      },
      { type: 'text', step: 1, text: 'Tomatoes need sun' },
    ];
    const at = '2024-05-01T10:00:00.000Z';
    before
      .prepare('INSERT INTO sessions (id, vault, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run('session-1', '/vault', 'Tomatoes', at, at);
    const insert = before.prepare(
      `INSERT INTO messages (session_id, role, parts, status, model, created_at, updated_at)
         VALUES ('session-1', ?, ?, ?, 'model', ?, ?)`,
    );
    insert.run('user', JSON.stringify(question), 'complete', at, at);
    insert.run('assistant', JSON.stringify(answer), 'streaming', at, at);
    insert.run('assistant', '[]', 'stopped', at, at);
    before.close();

    const db = openAppDatabase(workspace.dataDir);
    try {
      const store = new ChatStore(db);
      expect(store.session('session-1').messages.map((message) => message.parts)).toEqual([
        question,
        answer,
        [],
      ]);
      expect(store.listSessions('/vault', 'need sun')).toHaveLength(1);
      expect(store.listSessions('/vault', 'cucumber')).toHaveLength(0);
      // An answer streaming before the migration has no owner: nobody is writing it.
      expect(store.streaming.markInterrupted((streaming) => answerAbandoned(streaming, Date.now()))).toBe(1);
      expect(store.session('session-1').messages[1]).toMatchObject({ status: 'interrupted', parts: answer });
    } finally {
      db.close();
    }
  });
});
