import type { ChatMessage, ContextWindow } from '../../shared/chat-domain';
import type { SendInput } from '../../shared/context-items-domain';
import type { ResolvedLink } from '../../shared/index-domain';
import type { PromptFill, PromptPart, PromptVariable } from '../../shared/prompt-domain';
import { AppError } from '../app-error';
import type { MessageExtras } from '../chat/message-extras';
import type { TextVectors } from '../embeddings/text-vectors';
import type { Budget } from '../request/budget';
import type { ChatModel } from '../llm/llm-types';
import { promptNoteContext, type PromptNoteSource } from './prompt-note-item';
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
  /** The chat's choice about writes, as `chat:send` takes it. */
  writes?: SendInput['writes'];
}

export interface PromptRunnerOptions {
  catalog: PromptsCatalog;
  folder: () => string;
  index: {
    note(path: string): { path: string; title: string } | null;
    outgoing(path: string): ResolvedLink[];
  };
  readNote: (path: string) => Promise<{ content: string }>;
  /** The one count (calibrated) and the budget of a window: the configured model's when none is given. */
  tokens: (text: string) => number;
  budget: (window?: ContextWindow) => Promise<Budget>;
  vectors: TextVectors | null;
  /**
   * The model a prompt's `model:` names, on the chat's server; undefined for the chat's own. Refuses in
   * words a model the server does not offer.
   */
  model: (prompt: { name: string; model: string | null }) => Promise<ChatModel | undefined>;
  now?: () => Date;
}

/** A `/Name` draft as the meter counts it. */
export interface PromptDraft {
  text: string;
  context: MessageExtras['context'];
  include: { rules: string[]; tools: string[] };
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
    // A model the server does not offer is refused before the note is read or the chat is made.
    const model = await this.options.model(prompt);
    const filled = await this.fill(prompt, input, model);
    const part: PromptPart = {
      type: 'prompt',
      step: 0,
      name: prompt.name,
      path: prompt.path,
      fills: filled.fills,
      ...(prompt.model ? { model: prompt.model } : {}),
    };
    const { rules, tools } = prompt.include;
    const items = rules.length + tools.length > 0 ? { rules, tools } : undefined;
    return {
      prompt,
      send: {
        sessionId: input.sessionId,
        text: filled.text,
        ...(input.attachments ? { attachments: input.attachments } : {}),
        ...(items ? { items } : {}),
        ...(input.writes ? { writes: input.writes } : {}),
      },
      extras: { parts: [part], context: filled.context, ...(model ? { model } : {}) },
    };
  }

  /**
   * A `/Name` draft as its message would be: the filled words, the `{{note}}` it brings and the rules and
   * tools it adds, for the meter; null when the prompt would be refused (the draft counts as typed).
   */
  async draft(input: PromptRunInput): Promise<PromptDraft | null> {
    try {
      const prompt = await this.prompt(input.name);
      const { text, context } = await this.fill(prompt, input);
      return { text, context, include: prompt.include };
    } catch {
      return null;
    }
  }

  /**
   * What a message sent from a saved prompt brings again when its answer is retried: its `{{note}}`
   * (read again from the note it ran on) and the model it asked for; null for any other message.
   */
  async again(message: Pick<ChatMessage, 'parts'>): Promise<MessageExtras | null> {
    const part = message.parts.find((entry): entry is PromptPart => entry.type === 'prompt');
    if (!part) return null;
    const text = message.parts.find((entry) => entry.type === 'text')?.text ?? '';
    const model = await this.options.model({ name: part.name, model: part.model ?? null });
    const path = part.fills.find((fill) => fill.variable === 'note')?.path;
    const note = path ? await this.read(path) : null;
    if (path && !note) {
      throw new AppError(
        'not-found',
        `The prompt “${part.name}” ran on ${path}, which is no longer in the vault: it cannot be sent again.`,
      );
    }
    const budget = await this.budgetOf(model);
    const context = promptNoteContext(note, text, budget.pinned, this.options.tokens, this.options.vectors);
    return { parts: [], context, ...(model ? { model } : {}) };
  }

  /** The budget of the window `model` answers in: its own for a prompt's `model:`, else the chat's. */
  private async budgetOf(model: ChatModel | undefined): Promise<Budget> {
    return this.options.budget(model?.contextWindow ? await model.contextWindow() : undefined);
  }

  /** The prompt's words with its variables filled, what each put in, and the `{{note}}` it brings. */
  private async fill(prompt: SavedPrompt, input: PromptRunInput, model?: ChatModel) {
    const budget = await this.budgetOf(model);
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
    const { tokens, vectors } = this.options;
    const context = promptNoteContext(uses('note') ? note : null, text, budget.pinned, tokens, vectors);
    return { text, fills, context };
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
    const note = await this.read(path);
    if (!note) {
      throw new AppError(
        'not-found',
        `The prompt “${prompt.name}” uses ${names}, and there is no note ${path} in the vault.`,
      );
    }
    return note;
  }

  /** The note at `path` as the index knows it, read now; null when it is not in the vault. */
  private async read(path: string): Promise<PromptNoteSource | null> {
    const info = this.options.index.note(path);
    const content = info
      ? await this.options.readNote(info.path).then(
          (file) => file.content,
          () => null,
        )
      : null;
    return info && content !== null ? { path: info.path, title: info.title, content } : null;
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
