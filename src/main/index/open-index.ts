import type { SqliteDatabase } from '../storage/database';
import { openIndexDatabase } from '../storage/index-database';
import { HealthIssues } from './health-issues';
import { IndexStore } from './index-store';
import { LinkReads } from './link-reads';
import { LinkNames } from './link-names';
import { LinkResolutions } from './link-resolutions';
import { NoteCatalog } from './note-catalog';
import { NoteSearch } from './note-search';
import { TermStatistics } from './term-statistics';
import type { WriterLock } from './writer-lock';

/** A vault's index as it is open: its database, the SQL over it, and the resolver mirroring the vault. */
export interface OpenIndex {
  root: string;
  db: SqliteDatabase;
  store: IndexStore;
  reads: LinkReads;
  /** The health issues grouped by kind and target. */
  health: HealthIssues;
  resolutions: LinkResolutions;
  search: NoteSearch;
  /** How common the index's terms are, for "more like this". */
  terms: TermStatistics;
  catalog: NoteCatalog;
  /** The resolver mirroring the vault, and each note's aliases: read when first needed. */
  names: LinkNames;
  controller: AbortController;
  /** The writer lock when this process writes the index; null when it reads what another one writes. */
  lock: WriterLock | null;
}

/** Opens (creating or rebuilding if needed) the index of the vault at `root`, whose writer lock is held. */
export function openIndex(root: string, lock: WriterLock, onNotice: (message: string) => void): OpenIndex {
  return indexOver(root, openIndexDatabase(lock.indexFile, onNotice), lock);
}

/** The index of the vault at `root` in `db`, as it is there. */
export function indexOver(root: string, db: SqliteDatabase, lock: WriterLock | null): OpenIndex {
  const store = new IndexStore(db);
  const reads = new LinkReads(db);
  return {
    root,
    db,
    store,
    reads,
    health: new HealthIssues(db, reads),
    resolutions: new LinkResolutions(db),
    search: new NoteSearch(db),
    terms: new TermStatistics(db),
    catalog: new NoteCatalog(db),
    names: new LinkNames(store),
    controller: new AbortController(),
    lock,
  };
}
