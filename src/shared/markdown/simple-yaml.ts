// The `yaml` library spent a quarter of a cold index's parsing time (80–200 µs a note) on frontmatter that
// is nearly always a few `key: value` lines. This reads exactly that shape and says "not simple" for
// anything else, which then goes to the library; the differential test holds the two equal.

/** A frontmatter value in the simple shape: a string, a list of strings, or nothing. */
export type SimpleValue = string | string[] | null;

// Keys of 1,024 characters or more are refused by YAML; keep well below.
const keyPattern = /^([A-Za-z_][A-Za-z0-9_-]{0,999}):(?: +(.*))?$/;
const itemPattern = /^( *)- +(.*)$/;
/** Words the core schema reads as null or a boolean rather than a string. */
const notStringWords = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;

/**
 * Whether `text` is a plain scalar that YAML reads as exactly itself: no indicator first, nothing that could
 * start a comment, a mapping, a flow collection or an alias, no tab, control or line-breaking character.
 */
function isPlainText(text: string): boolean {
  if (text === '') return false;
  const first = text.charCodeAt(0);
  const firstIsSafe =
    (first >= 0x30 && first <= 0x39) ||
    (first >= 0x41 && first <= 0x5a) ||
    (first >= 0x61 && first <= 0x7a) ||
    first === 0x5f ||
    first === 0x2e ||
    first === 0x2f ||
    first === 0x28 ||
    first >= 0xa0;
  if (!firstIsSafe || text.charCodeAt(text.length - 1) === 0x20) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return false;
    switch (code) {
      case 0x23: // #
      case 0x3a: // :
      case 0x5b: // [
      case 0x5d: // ]
      case 0x7b: // {
      case 0x7d: // }
      case 0x2028:
      case 0x2029:
      case 0xfeff:
      case 0xfffe:
      case 0xffff:
        return false;
    }
  }
  return true;
}

/** The string a plain scalar stands for, or undefined when it might be a number, a boolean or null. */
function asString(text: string): string | undefined {
  const first = text.charCodeAt(0);
  if ((first >= 0x30 && first <= 0x39) || first === 0x2e || notStringWords.test(text)) return undefined;
  return text;
}

/** `[a, b]` on one line: its items (commas split them), or undefined when it is not that simple. */
function flowItems(text: string): string[] | undefined {
  if (!text.endsWith(']')) return undefined;
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const items = inner.split(',').map((item) => item.trim());
  return items.every((item) => isPlainText(item)) ? items : undefined;
}

/**
 * Reads frontmatter made only of top-level `key: plain value`, `key: [a, b]` and `key:` followed by
 * `- item` lines, with unique keys. Values of `wanted` keys are returned; any other key's value is only
 * checked for shape, so a date or a number there does not matter. Returns undefined for anything else.
 */
export function readSimpleYaml(
  yaml: string,
  wanted: ReadonlySet<string>,
): Map<string, SimpleValue> | undefined {
  const values = new Map<string, SimpleValue>();
  const seen = new Set<string>();
  const lines = yaml.split('\n');
  let listKey: string | null = null;
  let listIndent = -1;
  for (const line of lines) {
    if (line.trim() === '') {
      if (line !== '' && !/^ *$/.test(line)) return undefined;
      continue;
    }
    const item = listKey !== null ? itemPattern.exec(line) : null;
    if (item) {
      const indent = item[1]!.length;
      if (listIndent !== -1 && indent !== listIndent) return undefined;
      listIndent = indent;
      const text = item[2]!;
      if (!isPlainText(text)) return undefined;
      if (wanted.has(listKey!)) {
        const value = asString(text);
        if (value === undefined) return undefined;
        const list = values.get(listKey!);
        if (Array.isArray(list)) list.push(value);
        else values.set(listKey!, [value]);
      }
      continue;
    }
    const entry = keyPattern.exec(line);
    if (!entry) return undefined;
    const key = entry[1]!;
    if (seen.has(key) || notStringWords.test(key)) return undefined;
    seen.add(key);
    listKey = null;
    listIndent = -1;
    const text = entry[2] ?? '';
    if (text === '') {
      // Nothing after the colon: null, unless `- item` lines follow.
      listKey = key;
      if (wanted.has(key)) values.set(key, null);
      continue;
    }
    if (text.startsWith('[')) {
      const items = flowItems(text);
      if (items === undefined) return undefined;
      if (wanted.has(key)) {
        const strings = items.map(asString);
        if (strings.includes(undefined)) return undefined;
        values.set(key, strings as string[]);
      }
      continue;
    }
    if (!isPlainText(text)) return undefined;
    if (wanted.has(key)) {
      const value = asString(text);
      if (value === undefined) return undefined;
      values.set(key, value);
    }
  }
  return values;
}
