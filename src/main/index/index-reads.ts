import type {
  HealthCounts,
  IndexReport,
  NoteInfo,
  NoteSubpaths,
  NoteTitle,
  ResolvedLink,
  SearchHit,
  SearchPage,
  SearchRequest,
  SimilarByWords,
  TagCount,
  VaultHealth,
} from '../../shared/index-domain';
import type { HealthLinkPage, HealthSummary } from '../../shared/health-domain';
import { aliasFix, shortestLinkTarget } from '../../shared/links/link-text';
import type { SqliteDatabase } from '../storage/database';
import type { HealthGroupQuery } from './health-issues';
import { linksInNote } from './links-in-note';
import { likeThisQuery, similarByWords } from './more-like-this';
import type { NoteHash } from './note-catalog';
import type { SearchRankers } from './note-search';
import type { OpenIndex } from './open-index';

/**
 * The queries answered from whichever index is open, written by this process or by another: links,
 * health, search, notes, titles, tags, resolving. VaultIndex adds opening, passes and following.
 */
export abstract class IndexReads {
  /** The open index; throws an AppError saying why there is none. */
  protected abstract require(): OpenIndex;
  /** Notices about the open index (see VaultHealth.notices). */
  protected abstract indexNotices(): string[];
  /** The worker threads a search may share its ranking with now, or null. */
  protected abstract rankers(index: OpenIndex): SearchRankers | null;

  links(options: { broken?: boolean } = {}): ResolvedLink[] {
    return this.require().reads.links(options.broken ? ['broken', 'broken-subpath'] : undefined);
  }

  outgoing(path: string): ResolvedLink[] {
    return this.require().reads.outgoing(path);
  }

  backlinks(path: string): ResolvedLink[] {
    return this.require().reads.backlinks(path);
  }

  /** The open index's counts and warnings; `ms` and `parsed` describe the pass that brought it here. */
  report(ms = 0, parsed = 0): IndexReport {
    return reportOf(this.require(), ms, parsed);
  }

  health(): VaultHealth {
    const { reads, names } = this.require();
    const unresolved = reads.links(['broken']);
    return {
      broken: unresolved.filter((link) => !link.viaAlias),
      aliasLinks: unresolved
        .filter((link) => link.viaAlias)
        .map((link) => ({ ...link, fix: aliasFix(link, names.resolver) ?? undefined })),
      ambiguous: reads.links(['ambiguous']),
      brokenSubpaths: reads.links(['broken-subpath']),
      warnings: reads.warnings(),
      notices: this.indexNotices(),
    };
  }

  /** The health issues grouped by kind and target, with the warnings and notices; under `folder` when given. */
  healthSummary(folder: string | null = null): HealthSummary {
    const { health } = this.require();
    return {
      folder,
      kinds: health.kinds(folder),
      warnings: health.warnings(folder),
      notices: this.indexNotices(),
    };
  }

  /** A page of the links of one group of healthSummary(). */
  healthLinks(query: HealthGroupQuery): HealthLinkPage {
    const { health, names } = this.require();
    const page = health.groupLinks(query);
    // A link naming an alias comes with the link to write instead.
    return {
      ...page,
      links: page.links.map((link) => ({ ...link, fix: aliasFix(link, names.resolver) ?? undefined })),
    };
  }

  /** The sizes of health()'s lists, without reading them. */
  issueCounts(): HealthCounts {
    return { ...this.require().reads.issueCounts(), notices: this.indexNotices().length };
  }

  search(request: SearchRequest): Promise<SearchHit[]> {
    const index = this.require();
    return index.search.search(request, this.rankers(index));
  }

  /** A page of a search's hits and how many notes it found. */
  searchPage(request: SearchRequest): Promise<SearchPage> {
    const index = this.require();
    return index.search.page(request, this.rankers(index));
  }

  /**
   * Notes that share the most telling words of the note at `path`, best first: BM25 over its words of
   * highest tf × idf ("more like this").
   */
  async similarByWords(path: string, limit = 8): Promise<SimilarByWords[]> {
    const index = this.require();
    const columns = index.catalog.searchColumns(path);
    const query = columns ? likeThisQuery(columns, index.terms.available()) : '';
    if (query === '') return [];
    return similarByWords(path, await index.search.someWords(query, limit + 1, this.rankers(index)), limit);
  }

  /** The indexed note at `path`, or null. */
  note(path: string): NoteInfo | null {
    return this.require().catalog.note(path);
  }

  /** Every note's title and aliases, and the shortest link to it from a chat message. */
  titles(): NoteTitle[] {
    const { catalog, names } = this.require();
    const { resolver } = names;
    return catalog.titles().map((note) => ({ ...note, link: shortestLinkTarget(resolver, note.path, '') }));
  }

  /** The headings and blocks of the note a link typed in a chat message leads to; null if none. */
  subpaths(target: string): NoteSubpaths | null {
    const { resolver } = this.require().names;
    const found = resolver.resolveInMessage({ target, subpath: null });
    const note = found.kind === 'note' && found.path ? resolver.note(found.path) : undefined;
    return note ? { path: note.path, headings: note.headings, blocks: note.blocks } : null;
  }

  /** Path, title, content hash and lead of every note (or of those at `paths`), for the summary cache. */
  noteHashes(paths?: readonly string[]): NoteHash[] {
    return this.require().catalog.hashes(paths);
  }

  /** The notes in `folder` and its subfolders, with their content hashes. */
  noteHashesUnder(folder: string): NoteHash[] {
    return this.require().catalog.hashesUnder(folder);
  }

  /** Notes sharing tags with `path`, most shared first. */
  sharingTags(path: string, limit = 10) {
    return this.require().catalog.sharingTags(path, limit);
  }

  tags(): TagCount[] {
    return this.require().search.tags();
  }

  /** Resolves one link as if it were written in the note at `fromPath` (`''`: the vault's root). */
  resolve(link: { target: string; subpath: string | null }, fromPath: string) {
    return this.require().names.resolver.resolve(link, fromPath);
  }

  /** Resolves one link typed in a chat message: an alias may name its note there (see the resolver). */
  resolveInMessage(link: { target: string; subpath: string | null }) {
    return this.require().names.resolver.resolveInMessage(link);
  }

  /** The links in `content` (the note at `path` as just read), resolved against the vault as it is now. */
  linksIn(path: string, content: string): ResolvedLink[] {
    return linksInNote(path, content, this.require().names.resolver);
  }

  /** Test seam: the raw database of the open index. */
  database(): SqliteDatabase {
    return this.require().db;
  }
}

export function reportOf({ reads }: OpenIndex, ms: number, parsed: number): IndexReport {
  return { ...reads.counts(), warnings: reads.warnings(), parsed, ms };
}
