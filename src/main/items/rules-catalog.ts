import type { RuleInfo } from '../../shared/context-items-domain';
import { chunkInput, chunkNote } from '../embeddings/chunk-note';
import type { NoteHash } from '../index/note-catalog';
import { FolderNotes, type FolderNoteSources } from './folder-notes';
import { readRuleNote } from './rule-note';

/** A rule as requests use it: its text for the model and the passages a question is matched against. */
export interface Rule extends Omit<RuleInfo, 'tokens'> {
  /** The rule as the model is given it, in the system prompt. */
  text: string;
  /** What an `agent` rule is matched against: its description, else its title and its text's passages. */
  passages: string[];
}

/** Where rules come from: the index's notes under a folder, and the vault's reader. */
export type RulesSources = FolderNoteSources;

/** Passages of a rule without a description that are matched against questions. */
const matchedPassages = 20;

/**
 * The rules of a vault: the notes of its rules folder, read and parsed once per content (a rule edited
 * on disk is read again on the next request, since the watcher updates the index's hashes).
 */
export class RulesCatalog {
  private readonly notes: FolderNotes<Rule>;

  constructor(sources: RulesSources) {
    this.notes = new FolderNotes(sources, ruleOf);
  }

  list(folder: string): Promise<Rule[]> {
    return this.notes.list(folder);
  }
}

/** A rule note as requests use it; one that could not be read is kept with a warning. */
function ruleOf(note: NoteHash, content: string | Error): Rule {
  if (content instanceof Error) {
    return {
      path: note.path,
      name: note.title,
      include: 'manual',
      description: null,
      warning: `It could not be read (${content.message}).`,
      text: '',
      passages: [],
    };
  }
  const parsed = readRuleNote(content);
  const text = `## Rule: ${note.title}\n\n${parsed.body}`;
  const passages = parsed.description
    ? [`${note.title}: ${parsed.description}`]
    : chunkNote(note.title, parsed.body, { maxChunks: matchedPassages }).chunks.map((chunk) =>
        chunkInput(note.title, chunk.headingPath, chunk.text),
      );
  return {
    path: note.path,
    name: note.title,
    include: parsed.include,
    description: parsed.description,
    warning: parsed.warning,
    text,
    passages: passages.length > 0 ? passages : [note.title],
  };
}
