import type { ChatReference } from '../../shared/chat-domain';
import type { SendInput } from '../../shared/context-items-domain';
import type { ResolvedLink } from '../../shared/index-domain';
import type { PromptFill, PromptPart, PromptVariable } from '../../shared/prompt-domain';
import { AppError } from '../app-error';
import type { MessageExtras } from '../chat/message-extras';
import type { TextVectors } from '../embeddings/text-vectors';
import type { Budget } from '../request/budget';
import { pinnedItem } from '../request/sources/pinned-input';
import type { PromptsCatalog, SavedPrompt } from './prompts-catalog';
import { fillTemplate } from './prompt-template';
import { fillOf, linkList, localDate } from './prompt-values';

/** A saved prompt to run: on the open note, with the viewer's selection, and any words typed after it. */
export interface PromptRunInput {
  sessionId?: string;
  name: string;
  note?: string;
  selection?: string;
  text?: string;
  attachments?: string[];
}

export interface PromptRunnerOptions {
  catalog: PromptsCatalog;
  folder: () => string;
  index: {
    note(path: string): { path: string; title: string } | null;
    outgoing(path: string): ResolvedLink[];
  };
  readNote: (path: string) => Promise<{ content: string }>;
  /** The one count (calibrated) and the budget of the model's window. */
  tokens: (text: string) => number;
  budget: () => Promise<Budget>;
  vectors: TextVectors | null;
  now?: () => Date;
}

/** A message made from a saved prompt: what `chat:send` takes, and the note it brings. */
export interface PromptMessage {
  send: SendInput;
  extras: MessageExtras;
  prompt: SavedPrompt;
}

const noteVariables: readonly PromptVariable[] = ['note', 'title', 'links'];

/**
 * Fills a saved prompt's variables. `{{note}}` does not go into the words: the note goes with the
 * message as a pinned note does (whole while it fits the pinned share, else its passages most relevant
 * to the prompt), and the words say where; the other variables are put into the words. A value too
 * large for the model's window is refused in words, never sent cut without saying so.
 */
export class PromptRunner {
  constructor(private readonly options: PromptRunnerOptions) {}

  async message(input: PromptRunInput): Promise<PromptMessage> {
    const prompt = await this.prompt(input.name);
    const budget = await this.options.budget();
    const uses = (variable: PromptVariable) => prompt.variables.includes(variable);
    const note = noteVariables.some(uses) ? await this.note(prompt, input.note) : null;
    const values: Partial<Record<PromptVariable, string>> = {};
    const fills: PromptFill[] = [];
    const put = (variable: PromptVariable, text: string, shown = text, path?: string) => {
      values[variable] = text;
      fills.push(fillOf(variable, shown, path));
    };
    for (const variable of prompt.variables) {
      if (variable === 'note' && note) {
        put('note', `the note “${note.title}” (${note.path})`, note.content, note.path);
      } else if (variable === 'title' && note) put('title', note.title, note.title, note.path);
      else if (variable === 'links' && note) {
        const titleOf = (path: string) => this.options.index.note(path)?.title ?? null;
        put('links', linkList(this.options.index.outgoing(note.path), titleOf), undefined, note.path);
      } else if (variable === 'date') put('date', localDate(this.options.now?.() ?? new Date()));
      else if (variable === 'selection') put('selection', this.selection(prompt, input.selection, budget));
    }
    const extra = input.text?.trim() ?? '';
    const text = [fillTemplate(prompt.body, values), extra].filter((part) => part !== '').join('\n\n');
    this.assertFits(prompt, text, fills, budget);
    const part: PromptPart = { type: 'prompt', step: 0, name: prompt.name, path: prompt.path, fills };
    const { rules, tools } = prompt.include;
    const items = rules.length + tools.length > 0 ? { rules, tools } : undefined;
    return {
      prompt,
      send: {
        sessionId: input.sessionId,
        text,
        ...(input.attachments ? { attachments: input.attachments } : {}),
        ...(items ? { items } : {}),
      },
      extras: {
        parts: [part],
        context: async (numbers, signal) => {
          if (!note || !uses('note')) return { items: [], references: [] };
          const pinned = await pinnedItem(
            note,
            text,
            budget.pinned,
            this.options.tokens,
            numbers,
            this.options.vectors,
            signal,
          );
          // Said as what put it there: Context used shows the variable beside the note.
          const item = { ...pinned.item, label: `{{note}} ${note.title}`, include: 'direct' as const };
          const reference: ChatReference = {
            path: note.path,
            title: note.title,
            kind: 'direct',
            toolCallId: null,
            document: numbers(note.path, note.title),
            subpath: null,
            mode: null,
            tokens: null,
            summary: '',
          };
          return { items: [item], references: [reference] };
        },
      },
    };
  }

  private async prompt(name: string): Promise<SavedPrompt> {
    const folder = this.options.folder();
    const prompt = await this.options.catalog.find(folder, name);
    if (prompt) return prompt;
    const named = (await this.options.catalog.list(folder)).find(
      (entry) => entry.name.toLowerCase() === name.trim().toLowerCase(),
    );
    if (named) {
      throw new AppError(
        'invalid-input',
        `The prompt “${named.name}” does not run: ${named.warnings.join(' ')}`,
      );
    }
    throw new AppError('not-found', `There is no saved prompt “${name.trim()}” in ${folder}/.`);
  }

  private async note(prompt: SavedPrompt, path: string | undefined) {
    const used = prompt.variables.filter((variable) => noteVariables.includes(variable));
    const names = used.map((variable) => `{{${variable}}}`).join(', ');
    if (!path) {
      throw new AppError(
        'invalid-input',
        `The prompt “${prompt.name}” uses ${names}: open a note to run it on.`,
      );
    }
    const info = this.options.index.note(path);
    const content = info
      ? await this.options.readNote(info.path).then(
          (file) => file.content,
          () => null,
        )
      : null;
    if (!info || content === null) {
      throw new AppError(
        'not-found',
        `The prompt “${prompt.name}” uses ${names}, and there is no note ${path} in the vault.`,
      );
    }
    return { path: info.path, title: info.title, content };
  }

  /** The selection as written; refused when it alone would take more than one item may. */
  private selection(prompt: SavedPrompt, selection: string | undefined, budget: Budget): string {
    const text = selection?.trim() ?? '';
    if (text === '') {
      throw new AppError(
        'invalid-input',
        `The prompt “${prompt.name}” uses {{selection}}: select some text first.`,
      );
    }
    const tokens = this.options.tokens(text);
    if (tokens > budget.itemCap) {
      throw new AppError(
        'too-large',
        `The selection is about ${tokens.toLocaleString('en')} tokens; this model's window ` +
          `(${budget.window.toLocaleString('en')}) leaves room for ${budget.itemCap.toLocaleString('en')} ` +
          'in one message. Select less.',
      );
    }
    return text;
  }

  /** The filled words must leave the request room: past an item's share, refused with the largest variable. */
  private assertFits(prompt: SavedPrompt, text: string, fills: PromptFill[], budget: Budget): void {
    const tokens = this.options.tokens(text);
    if (tokens <= budget.itemCap) return;
    const inWords = fills.filter((fill) => fill.variable !== 'note');
    const largest = inWords.sort((a, b) => b.chars - a.chars)[0];
    const why = largest
      ? ` ({{${largest.variable}}} put in ${largest.chars.toLocaleString('en')} characters)`
      : '';
    throw new AppError(
      'too-large',
      `The prompt “${prompt.name}” makes a message of about ${tokens.toLocaleString('en')} tokens${why}; ` +
        `this model's window (${budget.window.toLocaleString('en')}) leaves room for ` +
        `${budget.itemCap.toLocaleString('en')}.`,
    );
  }
}
