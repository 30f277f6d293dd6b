/** The variables a saved prompt's body may hold, as `{{name}}`. */
export const promptVariables = ['note', 'selection', 'title', 'date', 'links'] as const;
export type PromptVariable = (typeof promptVariables)[number];

/** Where a vault's saved prompts live unless its settings say otherwise. */
export const defaultPromptsFolder = '_kasten/prompts';

/** A saved prompt as the `/` list shows it. */
export interface PromptInfo {
  /** What `/` and `kasten ask --prompt` call it: its frontmatter `name:`, else the note's title. */
  name: string;
  /** The prompt note, vault-relative. */
  path: string;
  description: string | null;
  /** The model it asks for instead of the chat's (frontmatter `model:`), on the same server. */
  model: string | null;
  /** Rules (paths or names) and tools it adds to the chat it runs in (frontmatter `include:`). */
  include: { rules: string[]; tools: string[] };
  /** The known variables its body uses, in the order they first occur. */
  variables: PromptVariable[];
  /** Whether it uses `{{selection}}`: the note viewer's selection bar offers it. */
  usesSelection: boolean;
  /** What is wrong with it, in plain words; it still runs unless `usable` is false. */
  warnings: string[];
  usable: boolean;
}

/** The open vault's prompts folder and what it holds. */
export interface PromptsView {
  folder: string;
  prompts: PromptInfo[];
}

/** What one variable put into a message sent from a saved prompt. */
export interface PromptFill {
  variable: PromptVariable;
  /** What it put in, at most a few hundred characters of it (the `{{note}}` goes with the request). */
  preview: string;
  /** The length of what it put in, in characters. */
  chars: number;
  /** For `{{note}}`, `{{title}}` and `{{links}}`: the note it came from. */
  path?: string;
}

/** A user message sent from a saved prompt: which one, and what each variable put in. */
export interface PromptPart {
  type: 'prompt';
  step: number;
  name: string;
  path: string;
  fills: PromptFill[];
  /** The model the prompt asked for (its `model:`), which answered it; absent for the chat's model. */
  model?: string;
}
