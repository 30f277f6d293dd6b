import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A deterministic synthetic vault for benchmarks: notes of about 2 KB with a realistic mix of
 * frontmatter (aliases, tags), headings, inline and nested tags, wikilinks with aliases, heading and
 * block subpaths, embeds, block ids, tables (with `\|` in links), code holding link-like text, duplicate
 * names across folders, Unicode names, a few broken links, and small image attachments.
 * Only `node:` imports, so scripts can load it without a bundler.
 */
export interface SyntheticVaultOptions {
  notes: number;
  seed: number;
  /**
   * Real sentences to write the notes with (see proseSentences), in place of the 45-word vocabulary with
   * which nearly every note holds nearly every word; names, headings and tags then take words of them.
   */
  prose?: readonly string[];
}

export interface SyntheticVault {
  notes: number;
  attachments: number;
  bytes: number;
}

/** mulberry32: a small, fast, seedable generator. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const vocabulary =
  'note idea link thought memory slip box index card writing reading source claim argument evidence question answer concept structure sequence branch method practice theory system context summary draft outline topic field research paper book chapter quote remark insight pattern habit review'.split(
    ' ',
  );
const unicodeNames = ['Café théorie', 'Übersicht', 'Zettel 📎', 'Ørsted notes', 'Résumé', '日本語メモ'];
const folders = ['', 'concepts', 'sources', 'people', 'projects/alpha', 'projects/beta', 'archive/2024'];
const pngBytes = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface Planned {
  path: string;
  name: string;
  headings: string[];
  blocks: string[];
}

export function writeSyntheticVault(root: string, options: SyntheticVaultOptions): SyntheticVault {
  const next = random(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const prose = options.prose;
  const words = prose ? proseWords(prose) : vocabulary;
  const sentence = (count: number) => {
    if (prose) return proseOf(count, () => pick(prose));
    const parts = Array.from({ length: count }, () => pick(words));
    const text = parts.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1) + '.';
  };

  const planned: Planned[] = [];
  for (let index = 0; index < options.notes; index++) {
    const folder = folders[index % folders.length]!;
    // Every 25th note reuses an earlier name in another folder: duplicate names across folders.
    const duplicate = index % 25 === 24 && planned.length > 10;
    const name = duplicate
      ? planned[Math.floor(next() * (planned.length - 1))]!.name
      : index % 40 === 7
        ? `${pick(unicodeNames)} ${index}`
        : `${pick(words)} ${pick(words)} ${index}`.replace(/^./, (c) => c.toUpperCase());
    const path = `${folder ? `${folder}/` : ''}${name}.md`;
    if (planned.some((note) => note.path === path)) continue;
    planned.push({
      path,
      name,
      headings: [`${pick(words)} ${index}`, `${pick(words)} details`, 'Links'],
      blocks: [`b${index.toString(36)}`],
    });
  }

  const attachments = Math.max(1, Math.floor(options.notes / 50));
  mkdirSync(join(root, 'attachments'), { recursive: true });
  for (let index = 0; index < attachments; index++)
    writeFileSync(join(root, 'attachments', `figure-${index}.png`), pngBytes);

  let bytes = 0;
  for (const [index, note] of planned.entries()) {
    const other = () => pick(planned);
    const lines: string[] = [];
    if (index % 3 !== 2) {
      lines.push(
        '---',
        `title: ${note.name}`,
        `aliases: [${pick(words)}-${index}]`,
        `tags: [${pick(words)}, area/${pick(words)}]`,
        `created: 2024-0${(index % 9) + 1}-1${index % 10}`,
        '---',
      );
    }
    lines.push('', `# ${note.name}`, '');
    lines.push(
      `${sentence(24)} See [[${other().name}]] and [[${other().name}|${pick(words)}]]. #${pick(words)}`,
    );
    lines.push('');
    lines.push(`## ${note.headings[0]}`, '');
    for (let paragraph = 0; paragraph < 3; paragraph++) {
      const target = other();
      const block = other();
      lines.push(
        `${sentence(30)} Compare [[${target.name}#${target.headings[0]}]] with [[${block.path.replace(/\.md$/, '')}#^${block.blocks[0]}|the block]]. #topic/${pick(words)}`,
        '',
      );
    }
    lines.push(`${sentence(18)} ^${note.blocks[0]}`, '');
    lines.push(`## ${note.headings[1]}`, '');
    lines.push('- ' + sentence(10) + ` [[${other().name}]]`);
    lines.push('- ' + sentence(12));
    lines.push('  - ' + sentence(8) + ` [[#${note.headings[0]}]]`, '');
    if (index % 4 === 0) {
      lines.push('| Note | Why |', '| --- | --- |');
      lines.push(`| [[${other().name}\\|${pick(words)}]] | ${sentence(6)} |`);
      lines.push(`| [[${other().name}]] | ${sentence(5)} |`, '');
    }
    if (index % 5 === 0) {
      lines.push('```markdown', `Not a link: [[${other().name}]] and ![[figure-0.png]]`, '```', '');
      lines.push(`Inline code \`[[not a link]]\` stays literal.`, '');
    }
    if (index % 6 === 0) lines.push(`![[figure-${index % attachments}.png|200]]`, '');
    const embedded = other();
    if (index % 9 === 0) lines.push(`![[${embedded.path.replace(/\.md$/, '')}#${embedded.headings[1]}]]`, '');
    if (index % 17 === 0) lines.push(`A link to [[Missing note ${index}]] that does not exist.`, '');
    lines.push('## Links', '');
    lines.push(`- Up: [[${other().name}]]`, `- Next: [[${other().path.replace(/\.md$/, '')}]]`, '');
    lines.push(sentence(40), '');
    const text = lines.join('\n');
    const file = join(root, note.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  }
  return { notes: planned.length, attachments, bytes };
}

/**
 * The sentences of the Markdown notes under `root` (the eval vault's prose): frontmatter, headings, code,
 * tables and list markers left out, links as the text they show, sentences of 4 to 60 words.
 */
export function proseSentences(root: string): string[] {
  const sentences: string[] = [];
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .sort();
  for (const name of files) {
    const text = readFileSync(join(root, name), 'utf8')
      .replace(/^---\n[\s\S]*?\n---\n/, '')
      .replace(/```[\s\S]*?```/g, '')
      .replace(/!?\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const paragraphs = text
      .split('\n')
      .filter((line) => !/^\s*(#|\||>|\$\$|<)/.test(line))
      .map((line) => line.replace(/^\s*(?:[-*+]|\d+\.)\s+(?:\[[ x]\]\s+)?/, '').trim());
    for (const line of paragraphs) {
      for (const piece of line.split(/(?<=[.!?])\s+(?=[A-Z0-9"(])/)) {
        const count = piece.split(/\s+/).length;
        if (count >= 4 && count <= 60 && /[.!?]$/.test(piece)) sentences.push(piece.replace(/[*_`]/g, ''));
      }
    }
  }
  return sentences;
}

/**
 * Sentences drawn until they are about as long as `count` words of the vocabulary (7 characters a word
 * with its space), the last one only if it brings them closer.
 */
function proseOf(count: number, draw: () => string): string {
  const length = count * 7;
  const parts: string[] = [];
  let held = 0;
  while (held < length) {
    const sentence = draw();
    if (parts.length > 0 && held + sentence.length + 1 - length > length - held) break;
    parts.push(sentence);
    held += sentence.length + 1;
  }
  return parts.join(' ');
}

/** The words of some sentences that can name a note, a heading or a tag: lowercase, 4 letters or more. */
function proseWords(sentences: readonly string[]): string[] {
  const words = new Set<string>();
  for (const sentence of sentences) {
    for (const word of sentence.split(/\s+/)) if (/^[a-z]{4,}$/.test(word)) words.add(word);
  }
  return [...words].sort();
}
