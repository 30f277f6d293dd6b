import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;
export type SqliteStatement<Parameters extends unknown[] = unknown[], Row = unknown> = Database.Statement<
  Parameters,
  Row
>;

/** One numbered migration; migration N brings `user_version` from N-1 to N. */
export type Migration = (db: SqliteDatabase) => void;

export interface OpenDatabaseOptions {
  file: string;
  migrations: readonly Migration[];
  /** Called with a user-facing message when the file had to be set aside and started afresh. */
  onNotice?: (message: string) => void;
  /**
   * The file only holds data derived from elsewhere (a vault's index): when it is unreadable or its schema
   * is not this build's, it is deleted and rebuilt instead of set aside or migrated.
   */
  derived?: boolean;
}

const unreadableCodes = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/** Opens (creating if needed) a WAL-mode database and applies pending migrations in one transaction. */
export function openDatabase({ file, migrations, onNotice, derived }: OpenDatabaseOptions): SqliteDatabase {
  mkdirSync(dirname(file), { recursive: true });
  try {
    if (derived) return openDerived(file, migrations, onNotice);
    return migrate(connect(file), migrations);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!unreadableCodes.has(code) || !existsSync(file)) throw error;
    if (derived) {
      removeDatabaseFiles(file);
      onNotice?.(`The index ${file} could not be read; it is being rebuilt from the vault.`);
      return migrate(connect(file), migrations);
    }
    const aside = `${file}.corrupt-${Date.now()}`;
    renameSync(file, aside);
    onNotice?.(
      `The database ${file} could not be read and was set aside as ${aside}; a new one was created.`,
    );
    return migrate(connect(file), migrations);
  }
}

function openDerived(file: string, migrations: readonly Migration[], onNotice?: (message: string) => void) {
  const db = connect(file);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === 0 || version === migrations.length) return migrate(db, migrations);
  db.close();
  removeDatabaseFiles(file);
  onNotice?.(
    `The index ${file} was built by another version of Kasten (schema ${version}); it is being rebuilt.`,
  );
  return migrate(connect(file), migrations);
}

/** Deletes a database file with its WAL and shared-memory files. */
export function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

/** A read-only connection to an existing WAL database that another connection writes. */
export function openReader(file: string): SqliteDatabase {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Takes an exclusive lock on `file` (an empty SQLite database made for the purpose) and returns what lets
 * go of it, or returns null at once when another connection, in this process or another, holds it. The
 * operating system drops the lock when its process ends however it ends, so a lock is never left stale;
 * and SQLite keeps locks on one file apart within a process, where POSIX locks alone would not.
 */
export function tryExclusiveLock(file: string): (() => void) | null {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 0 });
  try {
    // The journal in memory: no `-journal` file beside the lock, nothing is ever written to it.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
  return () => db.close();
}

/**
 * A read-write connection to an existing database that another connection set up: its journal mode and
 * schema are left as they are.
 */
export function openExisting(file: string): SqliteDatabase {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

function connect(file: string): SqliteDatabase {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

function migrate(db: SqliteDatabase, migrations: readonly Migration[]): SqliteDatabase {
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > migrations.length) {
      throw new Error(
        `The database ${db.name} was written by a newer Kasten (schema ${version}, this one knows ${migrations.length}).`,
      );
    }
    db.transaction(() => {
      for (let next = version; next < migrations.length; next++) {
        migrations[next]?.(db);
        db.pragma(`user_version = ${next + 1}`);
      }
    })();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
