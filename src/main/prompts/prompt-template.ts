import { promptVariables, type PromptVariable } from '../../shared/prompt-domain';

/** `{{ name }}`: a variable, spaces inside the braces allowed. */
const variablePattern = /\{\{\s*([^{}\s]*)\s*\}\}/g;

function isKnown(name: string): name is PromptVariable {
  return (promptVariables as readonly string[]).includes(name);
}

/** The variables a prompt's body uses: the known ones in the order they first occur, and any others. */
export function templateVariables(body: string): { known: PromptVariable[]; unknown: string[] } {
  const known: PromptVariable[] = [];
  const unknown: string[] = [];
  for (const match of body.matchAll(variablePattern)) {
    const name = match[1]!.toLowerCase();
    if (isKnown(name)) {
      if (!known.includes(name)) known.push(name);
    } else if (!unknown.includes(match[0])) unknown.push(match[0]);
  }
  return { known, unknown };
}

/**
 * The body with each known variable replaced by its value, in one pass: a value that itself holds
 * `{{note}}` (a selection quoting a prompt) is put in as written, never filled again. Unknown
 * variables stay as written (the list warns about them).
 */
export function fillTemplate(body: string, values: Partial<Record<PromptVariable, string>>): string {
  return body.replace(variablePattern, (whole, name: string) => {
    const key = name.toLowerCase();
    return isKnown(key) ? (values[key] ?? '') : whole;
  });
}
