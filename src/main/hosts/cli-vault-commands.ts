import { searchModes, type SearchMode } from '../../shared/contract';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import type {
  IndexProfile,
  IndexReport,
  ResolvedLink,
  SearchHit,
  SearchRanker,
} from '../../shared/index-domain';
import { highlightEnd, highlightStart } from '../index/note-search';
import { findNote, openCliApp } from './cli-app';
import { CliUsageError } from './cli-arguments';
import { call } from './cli-call';
import { describeLexicalOnly } from './cli-embedding-commands';

export interface VaultCommandEnvironment {
  dataDir: string;
  resourcesDir: string;
  indexWorker?: string;
  /** The embedding model for this run (`--embed-*` flags): `search` uses it. */
  embeddings?: Partial<EmbeddingSettings>;
  stdout: (text: string) => void;
  /** Why `search` answered by words when asked to search by meaning. */
  stderr: (text: string) => void;
}

export interface VaultCommandArguments {
  command: 'index' | 'links' | 'search' | 'backlinks';
  vault: string;
  /** The query for `search`, the note for `backlinks`. */
  subject?: string;
  json: boolean;
  broken: boolean;
  limit: number;
  /** `search`'s mode; by default hybrid when embeddings are on, else lexical. */
  mode?: SearchMode;
  /** `index`: also print where the pass's time went. */
  profile?: boolean;
}

export const vaultCommandUsage = `  kasten index <vault> [--json] [--profile]                 index a vault; print counts and warnings
                                                            (--profile: where the pass spent its time)
  kasten links <vault> [--broken] [--json]                  every link and what it resolves to
  kasten search <vault> <query> [--limit N] [--json]        search, best matches first, and what found each
       [--mode lexical|semantic|hybrid]                     by words, by meaning or both (default: hybrid
                                                            when embeddings are on, else lexical)
  kasten backlinks <vault> <note> [--json]                  the links pointing at a note`;

/** --mode: lexical, semantic or hybrid; none leaves it to the embedding settings. */
export function searchModeFlag(values: { mode?: string }): SearchMode | undefined {
  const { mode } = values;
  const known = searchModes.find((name) => name === mode);
  if (mode !== undefined && known === undefined)
    throw new CliUsageError(`--mode must be ${searchModes.join(', ')}, not "${mode}".`);
  return known;
}

/** Opens the vault without watching, brings its index up to date, and runs one query on it. */
export async function runVaultCommand(
  args: VaultCommandArguments,
  env: VaultCommandEnvironment,
): Promise<number> {
  const app = await openCliApp(args.vault, env);
  try {
    const print = (value: unknown, text: () => string) =>
      env.stdout(args.json ? JSON.stringify(value, null, 2) : text());
    switch (args.command) {
      case 'index': {
        const report = await call(app, 'index:report', undefined);
        const profile = args.profile ? (report.profile ?? null) : undefined;
        print({ ...indexJson(report), profile }, () =>
          [describeReport(report), ...(profile === undefined ? [] : [describeProfile(profile)])].join('\n'),
        );
        return 0;
      }
      case 'links': {
        const links = await call(app, 'links:list', { broken: args.broken });
        print(links.map(linkJson), () => links.map(describeLink).join('\n') || 'No links.');
        return 0;
      }
      case 'search': {
        const { hits, lexicalOnly } = await call(app, 'search:results', {
          query: args.subject ?? '',
          limit: args.limit,
          mode: args.mode,
        });
        const json = hits.map((hit) => ({ ...hit, snippet: plainHighlights(hit.snippet) }));
        print(json, () => describeHits(hits));
        if (lexicalOnly) env.stderr(describeLexicalOnly(lexicalOnly));
        return 0;
      }
      case 'backlinks': {
        const note = await findNote(app, args.subject ?? '');
        const links = await call(app, 'links:backlinks', { path: note });
        print(links.map(linkJson), () =>
          links.length === 0
            ? `Nothing links to ${note}.`
            : links.map((link) => `${link.source}:${link.line}  ${link.context}`).join('\n'),
        );
        return 0;
      }
    }
  } finally {
    await app.dispose();
  }
}

function indexJson(report: IndexReport) {
  const { notes, attachments, links, broken, ambiguous, brokenSubpaths, warnings, ms } = report;
  return { notes, attachments, links, broken, ambiguous, brokenSubpaths, warnings, ms };
}

const profileLines: [keyof IndexProfile, string][] = [
  ['read', 'reading notes (all threads)'],
  ['parse', 'parsing notes (all threads)'],
  ['parseOnMain', '  of which on the main thread'],
  ['notes', 'writing notes, headings, tags, names'],
  ['links', 'resolving and writing links'],
  ['fts', 'writing the full-text index'],
  ['commits', 'commits'],
  ['settle', 'settling links at the end'],
  ['indexes', 'building lookup indexes'],
  ['other', 'waiting for parsed notes, other'],
];

/** Where an index pass's time went, a line a phase; null when the pass parsed nothing. */
function describeProfile(profile: IndexProfile | null): string {
  if (!profile) return 'Nothing was parsed: no profile.';
  const lines = profileLines.map(
    ([phase, name]) => `  ${name.padEnd(40)} ${String(profile[phase]).padStart(7)} ms`,
  );
  return ['Where the time went:', ...lines].join('\n');
}

function linkJson(link: ResolvedLink) {
  const { source, line, column, raw, embed, target, subpath, resolved, status } = link;
  return { source, line, column, raw, embed, target, subpath, resolved, status };
}

function describeReport(report: IndexReport): string {
  const lines = [
    `${report.notes} notes, ${report.attachments} attachments, ${report.links} links ` +
      `(${report.broken} broken, ${report.ambiguous} ambiguous, ${report.brokenSubpaths} broken subpaths); ` +
      `${report.parsed} parsed in ${report.ms} ms.`,
  ];
  if (report.warnings.length > 0) {
    lines.push(`${report.warnings.length} warnings:`);
    for (const warning of report.warnings) lines.push(`  ${warning.path}: ${warning.message}`);
  }
  return lines.join('\n');
}

function describeLink(link: ResolvedLink): string {
  const where = `${link.source}:${link.line}:${link.column}`;
  const to = link.resolved ?? '∅';
  return `${where}  ${link.raw}  → ${to}  [${link.status}]${link.reason ? `  ${link.reason}` : ''}`;
}

/** How `search` heads each run of hits found the same way; the first run of all-words hits has none. */
const rankerHeadings: Record<SearchRanker, string> = {
  'all-words': 'Matching every word:',
  'some-words': 'Also matching some words:',
  semantic: 'Similar in meaning:',
};

/**
 * The hits in order, in runs found the same way, each run but a leading all-words one under a heading
 * naming how: lexically, the notes holding every word, then those holding some; hybrid search interleaves.
 */
export function describeHits(hits: SearchHit[]): string {
  if (hits.length === 0) return 'No matches.';
  const runs: { ranker: SearchRanker; lines: string[] }[] = [];
  for (const hit of hits) {
    const last = runs.at(-1);
    if (last?.ranker === hit.ranker) last.lines.push(describeHit(hit));
    else runs.push({ ranker: hit.ranker, lines: [describeHit(hit)] });
  }
  return runs
    .map(({ ranker, lines }, index) => {
      const heading = index === 0 && ranker === 'all-words' ? [] : [rankerHeadings[ranker], ''];
      return [...heading, lines.join('\n\n')].join('\n');
    })
    .join('\n\n');
}

function describeHit(hit: SearchHit): string {
  // Fused scores (hybrid) are sums of 1 / (60 + rank): two decimals would show them all alike.
  const score = hit.score.toFixed(Math.abs(hit.score) < 0.1 ? 4 : 2);
  return `${hit.title} — ${hit.path} (${score})\n  ${plainHighlights(hit.snippet).replace(/\s+/g, ' ')}`;
}

function plainHighlights(snippet: string): string {
  return snippet.replaceAll(highlightStart, '**').replaceAll(highlightEnd, '**');
}
