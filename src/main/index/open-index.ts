import { VaultLinkResolver } from '../../shared/links/link-resolver';
import type { SqliteDatabase } from '../storage/database';
import { indexFileFor, openIndexDatabase } from '../storage/index-database';
import { IndexStore } from './index-store';
import { LinkReads } from './link-reads';
import { LinkResolutions } from './link-resolutions';
import { NoteCatalog } from './note-catalog';
import { NoteSearch } from './note-search';

/** A vault's index as it is open: its database, the SQL over it, and the resolver mirroring the vault. */
export interface OpenIndex {
  root: string;
  db: SqliteDatabase;
  store: IndexStore;
  reads: LinkReads;
  resolutions: LinkResolutions;
  search: NoteSearch;
  catalog: NoteCatalog;
  resolver: VaultLinkResolver;
  /** Aliases per note path, to know which keys a note answered to before it changed. */
  aliases: Map<string, string[]>;
  controller: AbortController;
}

/** Opens (creating or rebuilding if needed) the index of the vault at `root` in `dataDir`. */
export function openIndex(root: string, dataDir: string, onNotice: (message: string) => void): OpenIndex {
  const db = openIndexDatabase(indexFileFor(dataDir, root), onNotice);
  const store = new IndexStore(db);
  const resolverNotes = store.resolverNotes();
  return {
    root,
    db,
    store,
    reads: new LinkReads(db),
    resolutions: new LinkResolutions(db),
    search: new NoteSearch(db),
    catalog: new NoteCatalog(db),
    resolver: new VaultLinkResolver(resolverNotes, store.attachmentStates().keys()),
    aliases: new Map(resolverNotes.map((note) => [note.path, note.aliases])),
    controller: new AbortController(),
  };
}
