import { parse as parseYaml } from 'yaml';
import { locateFrontmatter } from '../../../../shared/markdown/frontmatter';
import {
  parseWikiLinkInner,
  wikiLinkLabel,
  type WikiLinkParts,
} from '../../../../shared/markdown/wikilink-inner';

/** One value of a property, as Obsidian's properties table shows it. */
export type PropertyValue =
  | { kind: 'text'; text: string }
  | { kind: 'link'; link: WikiLinkParts; text: string }
  | { kind: 'url'; url: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'checkbox'; checked: boolean };

export interface Property {
  key: string;
  /** Empty for a property without a value. */
  values: PropertyValue[];
}

/** A note's properties, or why its frontmatter could not be read (shown with the YAML as written). */
export type NoteProperties =
  { ok: true; properties: Property[] } | { ok: false; yaml: string; reason: string };

const tagKeys: ReadonlySet<string> = new Set(['tags', 'tag']);

/**
 * The properties (YAML frontmatter) of a note, or null when it has none. Values read as Obsidian shows
 * them: lists item by item, `tags` as tags, `[[links]]` as links, `https://` addresses as links,
 * booleans as checkboxes; anything nested as its YAML text. Hostile YAML is bounded: at most 100
 * aliases expanded (no "billion laughs").
 */
export function noteProperties(content: string): NoteProperties | null {
  const { yaml } = locateFrontmatter(content.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/, 4096));
  if (yaml === null || yaml.trim() === '') return null;
  let data: unknown;
  try {
    data = parseYaml(yaml, { prettyErrors: false, maxAliasCount: 100, logLevel: 'error' });
  } catch (error) {
    return { ok: false, yaml, reason: (error as Error).message.split('\n')[0] ?? 'not valid YAML' };
  }
  if (data === null || data === undefined) return null;
  if (typeof data !== 'object' || Array.isArray(data))
    return { ok: false, yaml, reason: 'properties are a list of `key: value` lines' };
  return {
    ok: true,
    properties: Object.entries(data as Record<string, unknown>).map(([key, value]) => ({
      key,
      values: valuesOf(value, tagKeys.has(key.toLowerCase())),
    })),
  };
}

function valuesOf(value: unknown, tags: boolean): PropertyValue[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.flatMap((item) => valuesOf(item, tags));
  if (typeof value === 'boolean') return [{ kind: 'checkbox', checked: value }];
  if (typeof value === 'object') return [{ kind: 'text', text: JSON.stringify(value) }];
  const text = String(value).trim();
  if (tags)
    return text
      .split(/[\s,]+/)
      .filter((tag) => tag !== '')
      .map((tag) => ({ kind: 'tag', tag: tag.replace(/^#/, '') }));
  return [scalar(text)];
}

function scalar(text: string): PropertyValue {
  const wikilink = /^\[\[([^[\]]+)\]\]$/.exec(text);
  const link = wikilink && parseWikiLinkInner(wikilink[1]!);
  if (link) return { kind: 'link', link, text: wikiLinkLabel(link) };
  if (/^https?:\/\/\S+$/i.test(text)) return { kind: 'url', url: text };
  return { kind: 'text', text };
}
