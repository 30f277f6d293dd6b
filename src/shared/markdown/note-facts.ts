/** Everything the vault engine learns from one note's Markdown. Lines and columns are 1-based. */
export interface NoteFacts {
  /** Frontmatter `title`, else the first H1's text, else the file name without `.md`. */
  title: string;
  /** Frontmatter `aliases` / `alias` (string or list), trimmed, empty ones dropped, in order. */
  aliases: string[];
  /** Tags without `#`, from frontmatter `tags`/`tag` and inline `#tag` (nested `a/b` kept whole), deduplicated case-insensitively, first spelling kept, in order of appearance (frontmatter first). */
  tags: string[];
  headings: HeadingFact[];
  blocks: BlockFact[];
  /** Wikilinks and embeds, in document order. */
  links: WikiLinkFact[];
  /** Markdown links `[text](dest)` whose destination is a local file (no scheme, not `#`-only), in document order. */
  markdownLinks: MarkdownLinkFact[];
  /** The first paragraph's plain text, at most 280 characters. */
  lead: string;
  wordCount: number;
  /** Plain text of the body for full-text search: no markup, no frontmatter, code kept. */
  text: string;
  /** Problems worth showing the user (malformed frontmatter, ...). The note is still indexed. */
  warnings: string[];
}

export interface HeadingFact {
  level: number;
  /** Plain text of the heading (wikilinks as their display text). */
  text: string;
  line: number;
}

export interface BlockFact {
  /** Without the `^`. */
  id: string;
  line: number;
}

export interface WikiLinkFact {
  /** `![[...]]` rather than `[[...]]`. */
  embed: boolean;
  /** The link target as written, without subpath: `Note`, `folder/Note.md`, `../x`, or `''` for `[[#Heading]]`. */
  target: string;
  /** What follows the first `#`: `Heading`, `H1#H2`, `^block`; null when absent. */
  subpath: string | null;
  /** Text after `|` (for embeds of images this is the size, e.g. `300`); null when absent. */
  display: string | null;
  line: number;
  column: number;
  /** The link exactly as it appears in the source, e.g. `![[img.png|300]]`. */
  raw: string;
}

export interface MarkdownLinkFact {
  /** Destination, URL-decoded, without `#fragment`. */
  target: string;
  /** The `#fragment`, decoded, without `#`; null when absent. */
  subpath: string | null;
  text: string;
  embed: boolean;
  line: number;
  column: number;
}

/** The facts the differential test requires the fast extractor to reproduce exactly. */
export type StructuralFacts = Pick<
  NoteFacts,
  'title' | 'aliases' | 'tags' | 'headings' | 'blocks' | 'links' | 'markdownLinks'
>;
