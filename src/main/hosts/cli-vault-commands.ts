import type { IndexReport, ResolvedLink, SearchHit } from '../../shared/index-domain';
import type { KastenApp } from '../app';
import { highlightEnd, highlightStart } from '../index/note-search';
import { openCliApp } from './cli-app';

export interface VaultCommandEnvironment {
  dataDir: string;
  resourcesDir: string;
  indexWorker?: string;
  stdout: (text: string) => void;
}

export interface VaultCommandArguments {
  command: 'index' | 'links' | 'search' | 'backlinks';
  vault: string;
  /** The query for `search`, the note for `backlinks`. */
  subject?: string;
  json: boolean;
  broken: boolean;
  limit: number;
}

export const vaultCommandUsage = `  kasten index <vault> [--json]                             index a vault; print counts and warnings
  kasten links <vault> [--broken] [--json]                  every link and what it resolves to
  kasten search <vault> <query> [--limit N] [--json]        full-text search, best matches first
  kasten backlinks <vault> <note> [--json]                  the links pointing at a note`;

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
        const report = app.index.status().report ?? app.index.report();
        print(indexJson(report), () => describeReport(report));
        return 0;
      }
      case 'links': {
        const links = app.index.links({ broken: args.broken });
        print(links.map(linkJson), () => links.map(describeLink).join('\n') || 'No links.');
        return 0;
      }
      case 'search': {
        const hits = await app.index.search({ query: args.subject ?? '', limit: args.limit });
        const json = hits.map((hit) => ({ ...hit, snippet: plainHighlights(hit.snippet) }));
        print(json, () => describeHits(hits));
        return 0;
      }
      case 'backlinks': {
        const note = findNote(app, args.subject ?? '');
        const links = app.index.backlinks(note);
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

/** A note given by path or by name, the way a wikilink would find it. */
function findNote(app: KastenApp, note: string): string {
  const resolution = app.index.resolve({ target: note.replace(/^\/+/, ''), subpath: null }, '');
  if (resolution.path === null || resolution.kind !== 'note') {
    throw new Error(`No note "${note}" in this vault.`);
  }
  return resolution.path;
}

function indexJson(report: IndexReport) {
  const { notes, attachments, links, broken, ambiguous, brokenSubpaths, warnings, ms } = report;
  return { notes, attachments, links, broken, ambiguous, brokenSubpaths, warnings, ms };
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

/** The notes holding every word, then, under a heading, those holding some of the words. */
function describeHits(hits: SearchHit[]): string {
  if (hits.length === 0) return 'No matches.';
  const all = hits.filter((hit) => hit.ranker === 'all-words').map(describeHit);
  const some = hits.filter((hit) => hit.ranker === 'some-words').map(describeHit);
  const groups = all.length > 0 ? [all.join('\n\n')] : [];
  if (some.length > 0) groups.push(`Also matching some words:\n\n${some.join('\n\n')}`);
  return groups.join('\n\n');
}

function describeHit(hit: SearchHit): string {
  return `${hit.title} — ${hit.path} (${hit.score.toFixed(2)})\n  ${plainHighlights(hit.snippet).replace(/\s+/g, ' ')}`;
}

function plainHighlights(snippet: string): string {
  return snippet.replaceAll(highlightStart, '**').replaceAll(highlightEnd, '**');
}
