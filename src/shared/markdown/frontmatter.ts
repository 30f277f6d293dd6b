import { parse as parseYaml } from 'yaml';
import { readSimpleYaml } from './simple-yaml';

export interface FrontmatterFacts {
  title: string | null;
  aliases: string[];
  tags: string[];
  warnings: string[];
}

function strings(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value))
    return value.flatMap((item) => (item === null || typeof item === 'object' ? [] : [String(item)]));
  return [];
}

const readKeys: ReadonlySet<string> = new Set(['title', 'aliases', 'alias', 'tags', 'tag']);

/**
 * Reads `title`, `aliases`/`alias` and `tags`/`tag` from a note's YAML frontmatter; never throws. The
 * common simple shape is read directly (see simple-yaml), anything else by the `yaml` library.
 */
export function readFrontmatter(yaml: string): FrontmatterFacts {
  const simple = readSimpleYaml(yaml, readKeys);
  return simple ? frontmatterFacts(Object.fromEntries(simple)) : readFrontmatterWithLibrary(yaml);
}

/** readFrontmatter without the simple path: what the differential test compares it with. */
export function readFrontmatterWithLibrary(yaml: string): FrontmatterFacts {
  let data: unknown;
  try {
    data = parseYaml(yaml, { prettyErrors: false, maxAliasCount: 100, logLevel: 'error' });
  } catch (error) {
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    const reason = (error as Error).message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '');
    const warning = `Frontmatter is not valid YAML: ${reason}${line ? ` (line ${line + 1})` : ''}.`;
    return { title: null, aliases: [], tags: [], warnings: [warning] };
  }
  return frontmatterFacts(data);
}

function frontmatterFacts(data: unknown): FrontmatterFacts {
  const facts: FrontmatterFacts = { title: null, aliases: [], tags: [], warnings: [] };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return facts;
  const record = data as Record<string, unknown>;
  if (typeof record.title === 'string' && record.title.trim() !== '') facts.title = record.title.trim();
  facts.aliases = [...strings(record.aliases), ...strings(record.alias)]
    .map((alias) => alias.trim())
    .filter((alias) => alias !== '');
  facts.tags = [...strings(record.tags), ...strings(record.tag)]
    .flatMap((tag) => tag.split(/[\s,]+/))
    .map((tag) => tag.replace(/^#/, ''))
    .filter((tag) => tag !== '');
  return facts;
}

const fencePattern = /^---[ \t]*$/;

/**
 * Where YAML frontmatter is, by remark-frontmatter's rule: `---` alone on line 1 and a later `---` line
 * closing it. `bodyStart` is the index of the first line after it (0 when there is none).
 */
export function locateFrontmatter(lines: string[]): { yaml: string | null; bodyStart: number } {
  if (lines.length < 2 || !fencePattern.test(lines[0]!)) return { yaml: null, bodyStart: 0 };
  for (let index = 1; index < lines.length; index++) {
    if (fencePattern.test(lines[index]!))
      return { yaml: lines.slice(1, index).join('\n'), bodyStart: index + 1 };
  }
  return { yaml: null, bodyStart: 0 };
}
