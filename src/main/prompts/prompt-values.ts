import type { ResolvedLink } from '../../shared/index-domain';
import type { PromptFill, PromptVariable } from '../../shared/prompt-domain';

/** `{{links}}` lists at most this many links; the rest are counted. */
const mostLinks = 200;
const previewChars = 300;

/** `{{date}}`: the local day, as a note's daily file would be named (2026-12-07). */
export function localDate(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * `{{links}}`: the note's outgoing links, one per line, each target once — a note by its title and
 * path, a link to nothing by what it names. Not as wikilinks: the message would then bring every linked
 * note along with it.
 */
export function linkList(links: readonly ResolvedLink[], titleOf: (path: string) => string | null): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const link of links) {
    const title = link.resolved ? titleOf(link.resolved) : null;
    const line = title
      ? `- ${title} (${link.resolved})`
      : link.status === 'broken'
        ? `- ${link.target} (no such note)`
        : `- ${link.resolved ?? link.target}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  if (lines.length === 0) return '(the note links to nothing)';
  const more = lines.length - mostLinks;
  return [...lines.slice(0, mostLinks), ...(more > 0 ? [`- … and ${more} more`] : [])].join('\n');
}

/** What a variable put in, as the message's prompt part keeps it. */
export function fillOf(variable: PromptVariable, text: string, path?: string): PromptFill {
  const preview = text.length > previewChars ? `${text.slice(0, previewChars)}…` : text;
  return { variable, preview, chars: text.length, ...(path ? { path } : {}) };
}
