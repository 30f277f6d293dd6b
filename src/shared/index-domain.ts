import type { BlockFact, HeadingFact } from './markdown/note-facts';

/** How a link resolved: found, no such note, note found but not the heading/block, several candidates. */
export type LinkStatus = 'resolved' | 'broken' | 'broken-subpath' | 'ambiguous';

/** A wikilink, embed or local Markdown link in a note, with what it resolved to. */
export interface ResolvedLink {
  /** Vault-relative path of the note containing the link. */
  source: string;
  line: number;
  column: number;
  raw: string;
  kind: 'wikilink' | 'markdown';
  embed: boolean;
  target: string;
  subpath: string | null;
  display: string | null;
  /** Vault-relative path of the file it points to; set for ambiguous and broken-subpath links too. */
  resolved: string | null;
  status: LinkStatus;
  /**
   * Every file the link could mean, chosen one first, when ambiguous; when it names only an alias (broken,
   * `viaAlias`), the notes with that alias.
   */
  candidates: string[];
  /** Matched a frontmatter alias rather than a file name: in a note, such a link is broken (see fix). */
  viaAlias: boolean;
  /** Line of the heading or block the subpath names, in the resolved note. */
  subpathLine: number | null;
  /** Why it is broken or ambiguous, in a sentence. */
  reason: string | null;
  /** The link as it resolves, when Kasten knows how to write it: one naming only an alias. */
  fix?: string;
  /** The trimmed source line the link is on. */
  context: string;
}

export interface SearchRequest {
  query: string;
  limit?: number;
  /** How many of the best hits to pass over (the page after them). */
  offset?: number;
  /** Only notes inside this vault-relative folder. */
  folder?: string;
  /** Only notes with this tag (or a tag nested under it). */
  tag?: string;
}

/**
 * Which ranking found a hit: `all-words`, the notes holding every word of the query (each as a prefix),
 * or `some-words`, ranked after them when they are few: notes holding some of the words, stop words
 * left out, more of the words first; `semantic`, a note only hybrid search's vectors found (its snippet
 * is its closest passage, with nothing marked).
 */
export type SearchRanker = 'all-words' | 'some-words' | 'semantic';

/**
 * How an all-words hit matched, from the tightest: `title`, its title, file name or an alias is the
 * query; `whole`, every word as a whole word; `prefix`, some as the start of a longer word; `stem`, some
 * only by their stem in the note's language. Hits come in this order, by BM25 within each.
 */
export type SearchMatch = 'title' | 'whole' | 'prefix' | 'stem';

export interface SearchHit {
  path: string;
  title: string;
  /**
   * BM25 relevance within the hit's ranking and tier (see SearchMatch), higher is better; the hits come in
   * tier order, some-words hits after all-words hits.
   */
  score: number;
  /** A passage with the matched terms between `\u0002` and `\u0003`. */
  snippet: string;
  ranker: SearchRanker;
  /** How an all-words hit matched; absent for the others. */
  match?: SearchMatch;
}

/** A page of search hits and how many notes the search found in all. */
export interface SearchPage {
  hits: SearchHit[];
  /** Every note the search found: those holding every word, and those holding some when listed. */
  total: number;
}

/**
 * Why a search may be missing notes: the index is being built for the first time (`read` of `total`
 * notes so far), or its building was cancelled and resumes when the vault is next opened.
 */
export interface SearchPartial {
  read: number;
  total: number;
  cancelled: boolean;
}

export interface TagCount {
  tag: string;
  count: number;
}

export interface IndexWarning {
  path: string;
  message: string;
}

/** Everything in the vault that needs the user's attention. */
export interface VaultHealth {
  /** Links that lead nowhere, other than those naming an alias. */
  broken: ResolvedLink[];
  /** Links naming a note's alias rather than its file name: unresolved, as in Obsidian, each with its fix. */
  aliasLinks: ResolvedLink[];
  ambiguous: ResolvedLink[];
  brokenSubpaths: ResolvedLink[];
  warnings: IndexWarning[];
  /** What happened to the index itself since the vault was opened: rebuilt because it was unreadable, and so on. */
  notices: string[];
}

/** How many of each kind of issue VaultHealth would list: what the status bar shows. */
export type HealthCounts = { [Kind in keyof VaultHealth]: number };

/** Counts after an index pass, as `kasten index --json` prints them. */
export interface IndexReport {
  notes: number;
  attachments: number;
  links: number;
  /** Links that lead nowhere, those naming an alias included. */
  broken: number;
  ambiguous: number;
  brokenSubpaths: number;
  warnings: IndexWarning[];
  /** How many notes this pass parsed (0 on a warm start of an unchanged vault). */
  parsed: number;
  ms: number;
  /** Where the pass's time went, when it parsed notes (see IndexProfile). */
  profile?: IndexProfile;
}

/**
 * Where an index pass's time went, in milliseconds, as `kasten index --profile` prints it. `read` and
 * `parse` are summed over the threads that did them (the index workers, and the main thread when it
 * had nothing to write); the rest is the main thread's, and `other` is what is left of the pass's time:
 * mostly the main thread waiting for parsed notes.
 */
export interface IndexProfile {
  read: number;
  parse: number;
  /** Of `read` and `parse`, what the main thread did itself. */
  parseOnMain: number;
  notes: number;
  links: number;
  fts: number;
  commits: number;
  settle: number;
  indexes: number;
  other: number;
}

export interface IndexProgress {
  state: 'indexing' | 'idle' | 'cancelled';
  done: number;
  total: number;
  /** Estimated milliseconds left, null until there is enough to estimate from. */
  etaMs: number | null;
}

/** The index applied changes: links, backlinks and search results may differ now. */
export interface IndexChange {
  paths: string[];
  renamed: { from: string; to: string }[];
  /** Milliseconds from the watcher's first event of the batch to the index reflecting it. */
  latencyMs: number;
}

/** One note as the index knows it. */
export interface NoteInfo {
  path: string;
  title: string;
  /** The lead paragraph: the note's instant summary. */
  lead: string;
  wordCount: number;
  tags: string[];
}

/** A note's names, as `[[` completion offers them. */
export interface NoteTitle {
  path: string;
  title: string;
  aliases: string[];
  /** The shortest link target that leads to this note from a chat message (see shortestLinkTarget). */
  link: string;
}

/** The headings and blocks a `[[Note#` completion offers, of the note the target leads to. */
export interface NoteSubpaths {
  path: string;
  headings: HeadingFact[];
  blocks: BlockFact[];
}

/** A note that shares the most distinctive words of another one (BM25 "more like this"). */
export interface SimilarByWords {
  path: string;
  title: string;
  /** BM25 of the shared words; higher is closer, comparable only within one answer. */
  score: number;
  /** The shared words that weighed most, at most three. */
  words: string[];
}
