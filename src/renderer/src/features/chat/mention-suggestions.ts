import type { ItemInclude, SessionItems } from '../../../../shared/context-items-domain';
import type { NoteTitle } from '../../../../shared/index-domain';
import { foldForSearch } from '../../../../shared/search/search-folding';

/** Something `@` can add to a chat: a note to pin, a rule, a tool. */
export interface MentionCandidate {
  kind: 'note' | 'rule' | 'tool';
  /** What `items:set` takes: the note's path, the rule's path, the tool's name. */
  key: string;
  label: string;
  /** A second line: the note's path, the rule's description, the tool's server. */
  detail: string;
  /** Null for notes: pinning is always the user's choice. */
  include: ItemInclude | null;
  /** Already in the chat. */
  active: boolean;
}

/**
 * The `@query` being typed just before the caret: an `@` at the start or after a space or bracket, then
 * anything but a line break or another `@` (rule names have spaces). An e-mail address is not one.
 */
export function mentionBefore(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|[\s([])@((?:[^\s@][^@\n]{0,59})?)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: match.index + match[1]!.length, query: match[2]! };
}

/** The text with the `@query` between `start` and `caret` taken out, and where the caret goes. */
export function withoutMention(text: string, start: number, caret: number): { text: string; caret: number } {
  let before = text.slice(0, start);
  const after = text.slice(caret);
  // One space stays between the words either side, not two.
  if (before.endsWith(' ') && (after.startsWith(' ') || after === '')) before = before.slice(0, -1);
  return { text: before + after, caret: before.length };
}

/** A tool's name as a person says it: `mcp__weather__forecast` is "forecast". */
function toolLabel(name: string): string {
  return name.replace(/^mcp__[^_]+(?:_[^_]+)*?__/, '');
}

/** Every rule, tool and note `@` can offer in this chat; notes in the rules folder are offered as rules. */
export function mentionCandidates(
  items: Pick<SessionItems, 'rules' | 'tools' | 'rulesFolder'> & { pinned: { path: string }[] },
  titles: readonly NoteTitle[],
): MentionCandidate[] {
  const rulesFolder = `${items.rulesFolder.replace(/\/+$/, '')}/`;
  const pinned = new Set(items.pinned.map((note) => note.path));
  return [
    ...items.rules.map<MentionCandidate>((rule) => ({
      kind: 'rule',
      key: rule.path,
      label: rule.name,
      detail: rule.description ?? rule.path,
      include: rule.include,
      active: rule.active,
    })),
    ...items.tools.map<MentionCandidate>((tool) => ({
      kind: 'tool',
      key: tool.name,
      label: toolLabel(tool.name),
      detail: tool.server ? `${tool.server.name} (MCP)` : 'vault tool',
      include: tool.include,
      active: tool.active,
    })),
    ...titles
      .filter((note) => !note.path.startsWith(rulesFolder))
      .map<MentionCandidate>((note) => ({
        kind: 'note',
        key: note.path,
        label: note.title,
        detail: note.path,
        include: null,
        active: pinned.has(note.path),
      })),
  ];
}

const kindOrder: Record<MentionCandidate['kind'], number> = { rule: 0, tool: 1, note: 2 };

/**
 * Candidates whose name (or, for tools, full name) contains what was typed, case and accents folded:
 * those starting with it first, rules before tools before notes; at most `limit`.
 */
export function mentionSuggestions(
  candidates: readonly MentionCandidate[],
  query: string,
  limit = 8,
): MentionCandidate[] {
  const wanted = foldForSearch(query.trim());
  return candidates
    .map((candidate) => {
      const names = [candidate.label, candidate.kind === 'tool' ? candidate.key : ''].map(foldForSearch);
      const starts = names.some((name) => name.startsWith(wanted));
      return { candidate, starts, found: starts || names.some((name) => name.includes(wanted)) };
    })
    .filter((entry) => entry.found)
    .sort(
      (a, b) =>
        Number(b.starts) - Number(a.starts) || kindOrder[a.candidate.kind] - kindOrder[b.candidate.kind],
    )
    .slice(0, limit)
    .map((entry) => entry.candidate);
}
