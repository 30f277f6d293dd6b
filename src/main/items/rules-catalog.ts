import type { RuleInfo } from '../../shared/context-items-domain';
import { chunkInput, chunkNote } from '../embeddings/chunk-note';
import type { NoteHash } from '../index/note-catalog';
import { readRuleNote } from './rule-note';

/** A rule as requests use it: its text for the model and the passages a question is matched against. */
export interface Rule extends Omit<RuleInfo, 'tokens'> {
  /** The rule as the model is given it, in the system prompt. */
  text: string;
  /** What an `agent` rule is matched against: its description, else its title and its text's passages. */
  passages: string[];
}

export interface RulesSources {
  notesUnder(folder: string): NoteHash[];
  readNote(path: string): Promise<{ content: string }>;
}

/** Passages of a rule without a description that are matched against questions. */
const matchedPassages = 20;

/**
 * The rules of a vault: the notes of its rules folder, read and parsed once per content (a rule edited
 * on disk is read again on the next request, since the watcher updates the index's hashes).
 */
export class RulesCatalog {
  private readonly cache = new Map<string, { hash: string; rule: Rule }>();

  constructor(private readonly sources: RulesSources) {}

  async list(folder: string): Promise<Rule[]> {
    const notes = this.sources.notesUnder(folder.replace(/^\/+|\/+$/g, ''));
    const rules: Rule[] = [];
    const present = new Set<string>();
    for (const note of notes) {
      present.add(note.path);
      const cached = this.cache.get(note.path);
      if (cached?.hash === note.hash && cached.rule.name === note.title) {
        rules.push(cached.rule);
        continue;
      }
      const rule = await this.read(note);
      this.cache.set(note.path, { hash: note.hash, rule });
      rules.push(rule);
    }
    for (const path of this.cache.keys()) if (!present.has(path)) this.cache.delete(path);
    return rules;
  }

  private async read(note: NoteHash): Promise<Rule> {
    const content = await this.sources
      .readNote(note.path)
      .then((file) => file.content)
      .catch((error: Error) => error);
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
}
