import { z } from 'zod';
import type { ProposedChange, ToolCallPart } from '../../shared/chat-domain';
import type { LlmTool } from '../llm/llm-types';
import type { PreparedWrite } from '../vault/note-writes';
import type { VaultService } from '../vault/vault-service';
import { locateNote, type ToolVault } from './note-locator';
import type { ToolOutcome } from './vault-tools';
import type { WriteMode } from './write-permissions';

const inputs = {
  create_note: z.object({
    path: z
      .string()
      .min(1)
      .max(1000)
      .describe('Vault-relative path of the new note, ending in .md, such as "Projects/Garden plan.md"'),
    content: z.string().max(200_000).describe('The whole Markdown content of the new note'),
  }),
  append_to_note: z.object({
    note: z.string().min(1).describe('Note title, alias, wikilink target or vault-relative path'),
    content: z.string().min(1).max(200_000).describe('The Markdown to add'),
    heading: z
      .string()
      .optional()
      .describe("Add at the end of this heading's section instead of at the end of the note"),
  }),
};

type WriteToolName = keyof typeof inputs;

/** The tools that change the vault: offered only when writes are allowed, each call approved first. */
export const writeTools: LlmTool[] = [
  {
    name: 'create_note',
    description:
      'Create a new note in the vault. Never overwrites: fails if the path exists. The user sees the path and the whole content and approves or rejects it; the result says which.',
    input: inputs.create_note,
  },
  {
    name: 'append_to_note',
    description:
      "Add Markdown at the end of an existing note, or at the end of one heading's section. Nothing else in the note changes. The user sees the lines added and approves or rejects them; the result says which.",
    input: inputs.append_to_note,
  },
];

export function isWriteTool(name: string): name is WriteToolName {
  return Object.hasOwn(inputs, name);
}

/** Changes to the vault's notes, checked and confined; nothing is written before their commit. */
export type NoteWriter = Pick<VaultService, 'prepareCreate' | 'prepareAppend'>;

/** What a write call needs besides its arguments. */
export interface WriteContext {
  mode: WriteMode;
  /** Whether the user still allows writes in the vault: the switch may be turned off mid-answer. */
  allowed: () => boolean;
  /** Finds the note `append_to_note` names. */
  vault: ToolVault;
  writer: NoteWriter;
  /** Waits for the user's decision on the call (`ask` mode). */
  decide: (callId: string, signal: AbortSignal) => Promise<boolean | 'stopped'>;
}

/**
 * Runs a write tool call: checks it, puts the change on the call's part (`shown` saves and announces
 * it), waits for the user's decision and writes only when approved. Every way it can end becomes the
 * call's result for the model; never throws.
 */
export async function runWriteTool(
  context: WriteContext,
  call: ToolCallPart,
  invalid: string | null,
  shown: () => void,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  if (context.mode === 'refused') {
    return failure(
      'Writing to the vault is not allowed here (kasten ask runs without --allow-writes); nothing was written.',
    );
  }
  if (context.mode === 'ask' && !context.allowed()) {
    return failure(
      'Writing is turned off for this vault; the user can allow it in the chat. Nothing was written.',
    );
  }
  if (invalid !== null) return failure(invalid);
  let prepared: PreparedWrite;
  try {
    prepared = await prepare(context, call);
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
  const approval = { change: prepared.change, state: 'pending' as const };
  call.approval = approval;
  shown();
  const decision = context.mode === 'automatic' ? true : await context.decide(call.id, signal);
  if (decision !== true) {
    call.approval = { ...approval, state: 'rejected' };
    return done(
      decision === 'stopped'
        ? 'The user stopped the answer instead of approving the change; nothing was written.'
        : 'The user rejected the change; nothing was written.',
    );
  }
  try {
    await prepared.commit();
  } catch (error) {
    call.approval = { ...approval, state: 'failed' };
    return failure(`The user approved, but nothing was written: ${(error as Error).message}`);
  }
  call.approval = { ...approval, state: 'approved' };
  return done(`The user approved: ${describeChange(prepared.change)}.`);
}

async function prepare({ vault, writer }: WriteContext, call: ToolCallPart): Promise<PreparedWrite> {
  const name = call.name as WriteToolName;
  const parsed = inputs[name].safeParse(call.args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid arguments for ${name}: ${issues.join('; ')}`);
  }
  if (name === 'create_note') {
    const { path, content } = parsed.data as z.infer<(typeof inputs)['create_note']>;
    return writer.prepareCreate(path, content);
  }
  const { note, content, heading } = parsed.data as z.infer<(typeof inputs)['append_to_note']>;
  const { path } = await locateNote(vault, note);
  return writer.prepareAppend(path, content, heading ?? null);
}

/** "created "X"", "appended 3 lines to "X" at the end of the section "H"": what was written. */
export function describeChange(change: ProposedChange): string {
  if (change.kind === 'create') return `created "${change.path}"`;
  const count = change.added.filter((line) => line.trim() !== '').length;
  const where = change.heading === null ? 'at the end' : `at the end of the section "${change.heading}"`;
  const real = change.realPath ? ` (a link to "${change.realPath}", which was written)` : '';
  return `appended ${count} ${count === 1 ? 'line' : 'lines'} to "${change.path}"${real} ${where}`;
}

function failure(message: string): ToolOutcome {
  return { ok: false, output: message, notes: [] };
}

function done(message: string): ToolOutcome {
  return { ok: true, output: message, notes: [] };
}
