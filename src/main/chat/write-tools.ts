import { z } from 'zod';
import type { ProposedChange } from '../../shared/chat-domain';
import {
  defineTool,
  failure,
  success,
  type Tool,
  type ToolContext,
  type ToolOutcome,
} from '../tools/tool-registry';
import type { PreparedWrite } from '../vault/note-writes';
import type { VaultService } from '../vault/vault-service';
import { locateNote } from './note-locator';
import type { WriteMode } from './write-permissions';

/** Changes to the vault's notes, checked and confined; nothing is written before their commit. */
export type NoteWriter = Pick<VaultService, 'prepareCreate' | 'prepareAppend'>;

/** What a write call needs besides its arguments. */
export interface WriteContext {
  mode: WriteMode;
  /** Whether the user still allows writes in the vault: the switch may be turned off mid-answer. */
  allowed: () => boolean;
  writer: NoteWriter;
  /** Waits for the user's decision on the call (`ask` mode). */
  decide: (callId: string, signal: AbortSignal) => Promise<boolean | 'stopped'>;
}

/** Both write tools' line in the system prompt. */
const writeGuidance =
  'Change notes (create_note, append_to_note) only when the user asks; each change waits for their approval.';

const createNote = defineTool({
  name: 'create_note',
  family: 'write',
  description:
    'Create a new note in the vault. Never overwrites: fails if the path exists. The user sees the path and the whole content and approves or rejects it; the result says which.',
  input: z.object({
    path: z
      .string()
      .min(1)
      .max(1000)
      .describe('Vault-relative path of the new note, ending in .md, such as "Projects/Garden plan.md"'),
    content: z.string().max(200_000).describe('The whole Markdown content of the new note'),
  }),
  include: 'always',
  documents: null,
  writes: true,
  guidance: writeGuidance,
  run: ({ path, content }, context) =>
    proposeWrite(context, () => context.writes.writer.prepareCreate(path, content)),
});

const appendToNote = defineTool({
  name: 'append_to_note',
  family: 'write',
  description:
    "Add Markdown at the end of an existing note, or at the end of one heading's section. Nothing else in the note changes. The user sees the lines added and approves or rejects them; the result says which.",
  input: z.object({
    note: z.string().min(1).describe('Note title, alias, wikilink target or vault-relative path'),
    content: z.string().min(1).max(200_000).describe('The Markdown to add'),
    heading: z
      .string()
      .optional()
      .describe("Add at the end of this heading's section instead of at the end of the note"),
  }),
  include: 'always',
  documents: null,
  writes: true,
  guidance: writeGuidance,
  run: ({ note, content, heading }, context) =>
    proposeWrite(context, async () => {
      const { path } = await locateNote(context.vault, note);
      return context.writes.writer.prepareAppend(path, content, heading ?? null);
    }),
});

/** The tools that change the vault: offered only when writes are allowed, each call approved first. */
export const writeTools: readonly Tool[] = [createNote, appendToNote];

/**
 * Checks a write, puts the change on the call's part (`shown` saves and announces it), waits for the
 * user's decision and writes only when approved. Every way it can end becomes the call's result for
 * the model.
 */
async function proposeWrite(
  context: ToolContext,
  prepare: () => Promise<PreparedWrite>,
): Promise<ToolOutcome> {
  const { call, writes, signal } = context;
  const prepared = await prepare();
  const approval = { change: prepared.change, state: 'pending' as const };
  call.approval = approval;
  context.shown();
  const decision = writes.mode === 'automatic' ? true : await writes.decide(call.id, signal);
  if (decision !== true) {
    call.approval = { ...approval, state: 'rejected' };
    return success(
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
  return success(`The user approved: ${describeChange(prepared.change)}.`);
}

/** "created "X"", "appended 3 lines to "X" at the end of the section "H"": what was written. */
export function describeChange(change: ProposedChange): string {
  if (change.kind === 'create') return `created "${change.path}"`;
  const count = change.added.filter((line) => line.trim() !== '').length;
  const where = change.heading === null ? 'at the end' : `at the end of the section "${change.heading}"`;
  const real = change.realPath ? ` (a link to "${change.realPath}", which was written)` : '';
  return `appended ${count} ${count === 1 ? 'line' : 'lines'} to "${change.path}"${real} ${where}`;
}
