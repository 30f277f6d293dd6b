import type { PromptInfo } from '../../shared/prompt-domain';
import type { NoteHash } from '../index/note-catalog';
import { FolderNotes, type FolderNoteSources } from '../items/folder-notes';
import { readPromptNote } from './prompt-note';

/** A saved prompt as it runs: what the list shows and its body with variables. */
export interface SavedPrompt extends PromptInfo {
  body: string;
}

/**
 * The saved prompts of a vault: the notes of its prompts folder, found and read as rules are (see
 * RulesCatalog): through the index, read again only when the index's content hash changes, so the
 * watcher keeps them live whichever editor changed them.
 */
export class PromptsCatalog {
  private readonly notes: FolderNotes<SavedPrompt>;

  constructor(sources: FolderNoteSources) {
    this.notes = new FolderNotes(sources, promptOf);
  }

  async list(folder: string): Promise<SavedPrompt[]> {
    const prompts = await this.notes.list(folder);
    return withDuplicatesMarked(prompts.sort((a, b) => a.name.localeCompare(b.name)));
  }

  /** The prompt `name` calls (case aside), if it runs. */
  async find(folder: string, name: string): Promise<SavedPrompt | null> {
    const wanted = name.trim().toLowerCase();
    const prompts = await this.list(folder);
    return prompts.find((prompt) => prompt.usable && prompt.name.toLowerCase() === wanted) ?? null;
  }
}

/** A prompt note as it runs; one that could not be read is listed with a warning and does not run. */
function promptOf(note: NoteHash, content: string | Error): SavedPrompt {
  if (content instanceof Error) {
    return {
      name: note.title,
      path: note.path,
      description: null,
      model: null,
      include: { rules: [], tools: [] },
      variables: [],
      usesSelection: false,
      warnings: [`It could not be read (${content.message}).`],
      usable: false,
      body: '',
    };
  }
  const parsed = readPromptNote(content, note.title);
  return {
    name: parsed.name,
    path: note.path,
    description: parsed.description,
    model: parsed.model,
    include: parsed.include,
    variables: parsed.variables,
    usesSelection: parsed.variables.includes('selection'),
    warnings: parsed.warnings,
    usable: parsed.usable,
    body: parsed.body,
  };
}

/** Two prompts of one name: the first (by path) runs, the other says why it does not. */
function withDuplicatesMarked(prompts: SavedPrompt[]): SavedPrompt[] {
  const taken = new Map<string, string>();
  const byPath = [...prompts].sort((a, b) => a.path.localeCompare(b.path));
  const shadowed = new Map<string, string>();
  for (const prompt of byPath) {
    if (!prompt.usable) continue;
    const key = prompt.name.toLowerCase();
    const first = taken.get(key);
    if (first === undefined) taken.set(key, prompt.path);
    else shadowed.set(prompt.path, first);
  }
  return prompts.map((prompt) => {
    const first = shadowed.get(prompt.path);
    if (first === undefined) return prompt;
    return {
      ...prompt,
      usable: false,
      warnings: [...prompt.warnings, `${first} has the same name and runs instead; rename one of them.`],
    };
  });
}
