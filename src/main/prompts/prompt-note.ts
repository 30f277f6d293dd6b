import { parse as parseYaml } from 'yaml';
import { locateFrontmatter } from '../../shared/markdown/frontmatter';
import type { PromptVariable } from '../../shared/prompt-domain';
import { templateVariables } from './prompt-template';

/** A prompt note longer than this is listed with a warning and does not run. */
export const maxPromptBytes = 64 * 1024;

/** What a prompt note says: its frontmatter and its body with variables, and what is wrong with it. */
export interface PromptNote {
  name: string;
  description: string | null;
  model: string | null;
  include: { rules: string[]; tools: string[] };
  body: string;
  variables: PromptVariable[];
  warnings: string[];
  usable: boolean;
}

/**
 * Reads a saved prompt: frontmatter `name:`, `description:`, `model:`, `include:` (`rules:` and `tools:`,
 * lists of names), then the body. Anything wrong becomes a warning in words, never an exception: YAML
 * that does not parse (or expands too far: aliases are limited as for rules), fields of the wrong type,
 * variables Kasten does not know, a body too long to be a prompt or empty.
 */
export function readPromptNote(content: string, title: string): PromptNote {
  const warnings: string[] = [];
  const note: PromptNote = {
    name: title,
    description: null,
    model: null,
    include: { rules: [], tools: [] },
    body: '',
    variables: [],
    warnings,
    usable: true,
  };
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > maxPromptBytes) {
    warnings.push(
      `It is ${Math.ceil(bytes / 1024)} KB; a prompt may be at most ${maxPromptBytes / 1024} KB, so it does not run.`,
    );
    return { ...note, usable: false };
  }
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  const { yaml, bodyStart } = locateFrontmatter(lines);
  note.body = lines.slice(bodyStart).join('\n').trim();
  if (yaml !== null) readFrontmatter(yaml, note);
  const { known, unknown } = templateVariables(note.body);
  note.variables = known;
  if (unknown.length > 0) {
    warnings.push(
      `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a variable' : 'are not variables'} ` +
        'Kasten fills ({{note}}, {{selection}}, {{title}}, {{date}}, {{links}}): sent as written.',
    );
  }
  if (note.body === '') {
    warnings.push('Its body is empty: there is nothing to send.');
    note.usable = false;
  }
  return note;
}

function readFrontmatter(yaml: string, note: PromptNote): void {
  let data: unknown;
  try {
    data = parseYaml(yaml, { prettyErrors: false, maxAliasCount: 100, logLevel: 'error' });
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    note.warnings.push(`Its frontmatter is not valid YAML (${reason}): the note's title names it.`);
    return;
  }
  if (data === null || data === undefined) return;
  if (typeof data !== 'object' || Array.isArray(data)) {
    note.warnings.push("Its frontmatter is not a list of fields: the note's title names it.");
    return;
  }
  const record = data as Record<string, unknown>;
  const text = (field: string): string | null => {
    const value = record[field];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 500);
    note.warnings.push(`${field}: should be a line of text; it is left out.`);
    return null;
  };
  const name = text('name');
  if (name !== null) note.name = name.replace(/\s+/g, ' ');
  note.description = text('description');
  note.model = text('model');
  const include = record.include;
  if (include === undefined || include === null) return;
  if (typeof include !== 'object' || Array.isArray(include)) {
    note.warnings.push('include: should hold rules: and tools:, each a list of names; it is left out.');
    return;
  }
  const fields = include as Record<string, unknown>;
  note.include = { rules: names(fields.rules, 'rules', note), tools: names(fields.tools, 'tools', note) };
}

function names(value: unknown, field: string, note: PromptNote): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string' || entry.trim() === '')) {
    note.warnings.push(`include: ${field}: should be a list of names; it is left out.`);
    return [];
  }
  return (list as string[]).slice(0, 50).map((entry) => entry.trim());
}
