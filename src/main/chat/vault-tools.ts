import { z } from 'zod';
import { sameNameLabel } from '../../shared/embedding-domain';
import type { SearchRanker } from '../../shared/index-domain';
import { embeddedSection } from '../../shared/markdown/note-section';
import { parseWikiLinkInner } from '../../shared/markdown/wikilink-inner';
import {
  highlightEnd,
  highlightStart,
  maxQueryChars,
  maxQueryWords,
  searchedWords,
} from '../index/note-search';
import { defineTool, type SurfacedNote, type Tool } from '../tools/tool-registry';
import { locateNote } from './note-locator';

/** Longest note content handed to the model in one read; the rest is cut with a marker. */
const maxReadChars = 24_000;

const noteArgument = z.string().min(1).describe('Note title, alias, wikilink target or vault-relative path');

const json = (value: unknown) => JSON.stringify(value, null, 1);

/** A note among a tool's listed documents, with the entry that carried it to the model. */
function surfaced(entry: { document: number; title: string; path: string }): SurfacedNote {
  const { document, title, path } = entry;
  return { path, title, kind: 'search-hit', subpath: null, document, text: json(entry) };
}

/** How the model is told a hit was found. */
const matchedBy: Record<SearchRanker, string> = {
  'all-words': 'all words',
  'some-words': 'some words',
  semantic: 'meaning',
};

export const readNote = defineTool({
  name: 'read_note',
  family: 'vault',
  description: 'Read a note of the vault (or one heading section of it). Returns it as a numbered document.',
  input: z.object({
    note: noteArgument,
    heading: z.string().optional().describe('Only this heading section (or ^block)'),
  }),
  include: 'always',
  documents: 'read',
  writes: false,
  guidance: 'Read a note (read_note) before relying on what it says.',
  async run({ note, heading }, { vault, numbers }) {
    const { path, title } = await locateNote(vault, note);
    const source = await vault.readNote(path);
    let content = source.content;
    let subpath: string | null = null;
    if (heading) {
      subpath = heading.replace(/^#/, '');
      const found = vault.index.resolve({ target: path, subpath }, path);
      if (found.status !== 'resolved' || found.subpathLine === null) {
        throw new Error(`"${title}" has no heading or block "${heading}".`);
      }
      content = embeddedSection(content, found.subpathLine).replace(/^\n+/, '').trimEnd();
    }
    if (content.length > maxReadChars) {
      content = `${content.slice(0, maxReadChars)}\n\n[… cut: the note is ${content.length} characters long]`;
    }
    const document = numbers(path, title);
    const output = json({ document, title, path, ...(subpath ? { heading: subpath } : {}), content });
    return { ok: true, output, notes: [{ path, title, kind: 'read', subpath, document, text: output }] };
  },
});

const searchNotes = defineTool({
  name: 'search_notes',
  family: 'vault',
  description:
    'Search the vault; returns ranked notes with snippets as numbered documents: notes with all the words, then, when those are few, notes with some of them, and (when semantic search is on) notes close in meaning.',
  input: z.object({
    query: z.string().min(1),
    limit: z.number().int().min(1).max(20).optional(),
  }),
  include: 'always',
  documents: 'listed',
  writes: false,
  guidance: 'Search the notes (search_notes) rather than guess.',
  async run({ query, limit }, { vault, numbers }) {
    const { words, shortened } = searchedWords(query);
    const { hits, lexicalOnly } = await vault.search({ query, limit: limit ?? 8 });
    const documents = hits.map((hit) => ({
      document: numbers(hit.path, hit.title),
      title: hit.title,
      path: hit.path,
      // Notes holding only some of the words come after those holding all of them, and say so.
      matched: matchedBy[hit.ranker],
      content: hit.snippet.replaceAll(highlightStart, '').replaceAll(highlightEnd, ''),
    }));
    const searched = shortened ? words.map((word) => word.text).join(' ') : query;
    const notes = [
      shortened &&
        `The query was shortened: only its first ${maxQueryWords} different words within ${maxQueryChars} characters are searched for, "${searched}".`,
      // Semantic search that is on but cannot answer: the model should know these are word matches only.
      lexicalOnly && lexicalOnly.code !== 'off' && `Searched by words only, because ${lexicalOnly.message}.`,
    ].filter((note): note is string => typeof note === 'string');
    const found = documents.length ? json(documents) : `No note matches "${searched}".`;
    return {
      ok: true,
      output: [...notes, found].join('\n'),
      notes: documents.map((entry) => surfaced(entry)),
    };
  },
});

const findRelated = defineTool({
  name: 'find_related',
  family: 'vault',
  description:
    'Notes related to a note, each with its reasons: the notes it links to, the notes linking to it, notes sharing tags, and notes similar in meaning or words. Similar notes that are not linked either way are marked missingLink; notes with the same file name in another folder (translations, copies) are marked sameName instead.',
  input: z.object({ note: noteArgument }),
  include: 'always',
  documents: 'listed',
  writes: false,
  async run({ note }, { vault, numbers }) {
    const { path, title } = await locateNote(vault, note);
    const { notes, semantic } = await vault.related({ path, limit: 20 });
    const related = notes.map((other) => ({
      document: numbers(other.path, other.title),
      title: other.title,
      path: other.path,
      reasons: other.reasons,
      ...(other.missingLink ? { missingLink: true } : {}),
      ...(other.sameNameIn !== null ? { sameName: sameNameLabel(other.sameNameIn) } : {}),
      summary: vault.summary(other.path),
    }));
    const how = semantic ? `Similarity is by shared words, because ${semantic.message}.\n` : '';
    return {
      ok: true,
      output: related.length ? `${how}${json(related)}` : `No notes related to "${title}" were found.`,
      notes: related.map((entry) => surfaced(entry)),
    };
  },
});

const listBacklinks = defineTool({
  name: 'list_backlinks',
  family: 'vault',
  description: 'Notes that link to a note, with the line containing each link.',
  input: z.object({ note: noteArgument }),
  include: 'always',
  documents: 'listed',
  writes: false,
  async run({ note }, { vault, numbers }) {
    const { path, title } = await locateNote(vault, note);
    const links = vault.index.backlinks(path).filter((link) => link.source !== path);
    const entries = links.slice(0, 50).map((link) => {
      const sourceTitle = vault.index.note(link.source)?.title ?? link.source;
      return {
        document: numbers(link.source, sourceTitle),
        title: sourceTitle,
        path: link.source,
        line: link.line,
        content: link.context,
      };
    });
    return {
      ok: true,
      output: entries.length ? json(entries) : `No note links to "${title}".`,
      notes: entries.map((entry) => surfaced(entry)),
    };
  },
});

const resolveWikilink = defineTool({
  name: 'resolve_wikilink',
  family: 'vault',
  description: 'Where a wikilink points: the note path, heading line, or why it is broken or ambiguous.',
  input: z.object({ link: z.string().min(1).describe('A wikilink such as [[Note#Heading]]') }),
  include: 'always',
  documents: null,
  writes: false,
  async run({ link }, { vault }) {
    const inner = link
      .trim()
      .replace(/^!?\[\[/, '')
      .replace(/\]\]$/, '');
    const parts = parseWikiLinkInner(inner);
    if (!parts) throw new Error(`"${link}" is not a wikilink.`);
    const found = vault.index.resolve({ target: parts.target, subpath: parts.subpath }, '');
    const title = found.path ? (vault.index.note(found.path)?.title ?? null) : null;
    return {
      ok: true,
      output: json({
        status: found.status,
        path: found.path,
        title,
        headingLine: found.subpathLine,
        candidates: found.candidates,
        reason: found.reason,
      }),
      notes: [],
    };
  },
});

/** The read-only vault tools offered to the model. */
export const vaultTools: readonly Tool[] = [
  readNote,
  searchNotes,
  findRelated,
  listBacklinks,
  resolveWikilink,
];
