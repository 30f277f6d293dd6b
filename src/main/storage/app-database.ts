import { join } from 'node:path';
import { openDatabase, type Migration, type SqliteDatabase } from './database';

/** Schema of the app-wide database (`kasten.sqlite` in the data directory). Append only. */
const migrations: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE recent_vaults (
        path TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        opened_at TEXT NOT NULL
      );
    `),
];

export function openAppDatabase(dataDir: string, onNotice?: (message: string) => void): SqliteDatabase {
  return openDatabase({ file: join(dataDir, 'kasten.sqlite'), migrations, onNotice });
}
