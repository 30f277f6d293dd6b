import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { indexFileFor } from '../../src/main/storage/index-database';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';

interface WordQuery {
  language: string;
  query: string;
  relevant: string[];
}

const wordQueries = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'eval', 'multilingual.json'), 'utf8'),
) as WordQuery[];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function indexed(fixture?: string, notes: Record<string, string> = {}) {
  const ws = tempWorkspace(fixture);
  cleanups.push(ws.remove);
  mkdirSync(ws.vault, { recursive: true });
  for (const [path, text] of Object.entries(notes)) writeFileSync(join(ws.vault, path), text);
  const app = await startIndexedApp(ws.dataDir, ws.vault);
  cleanups.push(() => app.dispose());
  return { ws, app };
}

const paths = async (app: KastenApp, query: string) =>
  (await app.index.search({ query, limit: 50 })).map((hit) => hit.path.normalize('NFC'));

describe('one-word searches in every writing system', () => {
  it('finds every note holding the word and no other, in each language of the multilingual vault', async () => {
    const { app } = await indexed('multilingual');
    const byLanguage = new Map<string, { recall: number; precision: number; queries: number }>();
    for (const { language, query, relevant } of wordQueries) {
      const found = await paths(app, query);
      const right = found.filter((path) => relevant.includes(path)).length;
      const figures = byLanguage.get(language) ?? { recall: 0, precision: 0, queries: 0 };
      figures.recall += right / relevant.length;
      figures.precision += found.length === 0 ? 0 : right / found.length;
      figures.queries++;
      byLanguage.set(language, figures);
    }
    // Chinese, Japanese and Thai (no spaces), Hindi and Bengali (vowel signs), Korean, Arabic, English.
    expect([...byLanguage.keys()].sort()).toEqual(['ar', 'bn', 'en', 'hi', 'ja', 'ko', 'th', 'zh']);
    for (const [language, { recall, precision, queries }] of byLanguage) {
      expect(recall / queries, `${language} recall`).toBeGreaterThanOrEqual(0.95);
      expect(precision / queries, `${language} precision`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('tells a Thai or Bengali word from another with the same consonants and other vowel signs', async () => {
    // กิน (eat) and ก้น (bottom) are ก and น with a vowel sign or a tone mark; নোট (note) and নাটক (play)
    // share ন and ট. With marks taken for separators, each pair was one word to search.
    const { app } = await indexed(undefined, {
      'Dinner.md': 'เรากินข้าวเย็นด้วยกันทุกวัน',
      'Pot.md': 'ข้าวติดก้นหม้อเพราะไฟแรงเกินไป',
      'Notes.md': 'প্রতিদিন একটা নতুন নোট লিখি।',
      'Theatre.md': 'কাল রাতে একটা নাটক দেখলাম।',
    });
    expect(await paths(app, 'กิน')).toEqual(['Dinner.md']);
    expect(await paths(app, 'ก้น')).toEqual(['Pot.md']);
    expect(await paths(app, 'নোট')).toEqual(['Notes.md']);
    expect(await paths(app, 'নাটক')).toEqual(['Theatre.md']);
  });

  it('rebuilds an index whose search table was written the old way, with a notice', async () => {
    const { ws, app } = await indexed(undefined, { 'Thai.md': 'ลิงก์ไปยังโน้ตอื่น' });
    await app.dispose();
    // The schema before this one: its last migration, and notes_fts without marks as letters.
    const file = indexFileFor(ws.dataDir, ws.vault);
    const db = new Database(file);
    const version = db.pragma('user_version', { simple: true }) as number;
    db.exec(`DROP TABLE notes_fts;
      CREATE VIRTUAL TABLE notes_fts USING fts5(title, aliases, headings, body,
        tokenize = 'porter unicode61 remove_diacritics 2');`);
    db.pragma(`user_version = ${version - 1}`);
    db.close();
    const again = await startIndexedApp(ws.dataDir, ws.vault);
    cleanups.push(() => again.dispose());
    expect(again.index.health().notices).toEqual([expect.stringContaining('built by another version')]);
    expect((await again.index.search({ query: 'โน้ต' })).map((hit) => hit.path)).toEqual(['Thai.md']);
  });
});
