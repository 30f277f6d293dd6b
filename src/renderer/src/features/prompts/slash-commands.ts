import type { PromptInfo } from '../../../../shared/prompt-domain';

/** A row of the `/` list: a saved prompt, or `/compact`. */
export type SlashCommand =
  | { kind: 'prompt'; name: string; description: string | null; prompt: PromptInfo }
  | { kind: 'compact'; name: 'compact'; description: string };

const compact: SlashCommand = {
  kind: 'compact',
  name: 'compact',
  description: 'Summarize the older messages of this chat now (add a focus after it)',
};

/**
 * The command being typed: only when the message starts with `/` and the caret is still in its first
 * word (a `/` in the middle of a sentence, or after the command's name, is text).
 */
export function slashQuery(text: string, caret: number): string | null {
  if (!text.startsWith('/')) return null;
  const typed = text.slice(1, caret);
  return /\s/.test(typed) || caret < 1 ? null : typed;
}

/** The commands matching what was typed: names starting with it first, then containing it. */
export function slashCommands(prompts: readonly PromptInfo[], query: string): SlashCommand[] {
  const wanted = query.toLowerCase();
  const all: SlashCommand[] = [
    ...prompts.map((prompt) => ({
      kind: 'prompt' as const,
      name: prompt.name,
      description: prompt.description,
      prompt,
    })),
    compact,
  ];
  const rank = (command: SlashCommand) => {
    const name = command.name.toLowerCase();
    const slug = name.replace(/\s+/g, '-');
    if (name.startsWith(wanted) || slug.startsWith(wanted)) return 0;
    return name.includes(wanted) || slug.includes(wanted) ? 1 : 2;
  };
  return all
    .filter((command) => rank(command) < 2)
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/**
 * The saved prompt a message calls, `/Name` then anything written after it, the longest name first
 * (a name may hold spaces); null when the message calls none.
 */
export function promptCall(
  text: string,
  prompts: readonly PromptInfo[],
): { prompt: PromptInfo; rest: string } | null {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('/')) return null;
  const body = trimmed.slice(1);
  const lower = body.toLowerCase();
  const byLength = [...prompts].sort((a, b) => b.name.length - a.name.length);
  for (const prompt of byLength) {
    const name = prompt.name.toLowerCase();
    for (const form of [name, name.replace(/\s+/g, '-')]) {
      if (!lower.startsWith(form)) continue;
      const after = body.slice(form.length);
      if (after === '' || /^\s/.test(after)) return { prompt, rest: after.trim() };
    }
  }
  return null;
}
