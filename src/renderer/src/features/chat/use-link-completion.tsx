import type { NoteTitle } from '../../../../shared/index-domain';
import { openLinkBefore, openSubpathBefore } from './link-completion';
import { linkText, suggestionsFor, type Suggestion } from './link-suggestions';
import { blockSuggestions, headingSuggestions, type SubpathSuggestion } from './subpath-suggestions';
import type { SuggestionRow } from './SuggestionList';
import { useNoteSubpaths } from './use-note-subpaths';

function noteRow(suggestion: Suggestion): SuggestionRow {
  return {
    key: `${suggestion.path}:${suggestion.label}`,
    content: (
      <>
        {suggestion.label}
        {suggestion.alias !== null && <span className="muted"> → {suggestion.title}</span>}
        <span className="muted small"> {suggestion.path}</span>
      </>
    ),
  };
}

function subpathRow(suggestion: SubpathSuggestion, index: number): SuggestionRow {
  return {
    key: `${index}:${suggestion.subpath}`,
    content: (
      <span
        className="subpath-suggestion"
        style={{ paddingInlineStart: `${Math.max(suggestion.level - 1, 0)}em` }}
      >
        {suggestion.label}
        <span className="muted small"> {suggestion.detail}</span>
      </span>
    ),
  };
}

/** Whether a `[[` or `[[Note#` completion is open at the caret. */
export function linkOpenBefore(text: string, caret: number): boolean {
  return openLinkBefore(text, caret) !== null || openSubpathBefore(text, caret) !== null;
}

/**
 * The `[[` completion at the caret: `[[query` offers notes and writes the shortest link that leads to the
 * one chosen; `[[Note#` offers the headings of the note the link leads to, `[[Note#^` its blocks. Null
 * when no `[[` is open.
 */
export function useLinkCompletion(
  text: string,
  caret: number,
  titles: readonly NoteTitle[] | null,
  edit: (text: string, caret: number) => void,
) {
  const note = openLinkBefore(text, caret);
  const subpath = note ? null : openSubpathBefore(text, caret);
  const read = useNoteSubpaths(subpath?.target ?? null);
  if (!note && !subpath) return null;

  /** Writes `[[inner]]` in place of what was typed from `[[`, and of the rest of a link the caret is in. */
  const write = (start: number, inner: string) => {
    const after = text.slice(caret).replace(/^[^\]\n]*\]\]/, '');
    const before = `${text.slice(0, start)}[[${inner}]]`;
    edit(before + after, before.length);
  };

  if (note) {
    const found = titles ? suggestionsFor(titles, note.query) : [];
    return {
      start: note.start,
      label: 'Notes',
      rows: found.map(noteRow),
      choose: (index: number) => write(note.start, linkText(found[index]!)),
    };
  }
  const { start, target, block, query } = subpath!;
  const subpaths = read?.subpaths ?? null;
  const found = !subpaths
    ? []
    : block
      ? blockSuggestions(subpaths, read?.lines ?? null, query)
      : headingSuggestions(subpaths, query);
  return {
    start,
    label: block ? 'Blocks' : 'Headings',
    rows: found.map(subpathRow),
    choose: (index: number) => write(start, `${target}#${found[index]!.subpath}`),
  };
}
