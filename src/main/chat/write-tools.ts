import { z } from 'zod';
import type { ProposedChange } from '../../shared/chat-domain';
import { defineTool, type Tool } from '../tools/tool-registry';
import type { CommittedWrite } from '../vault/note-writes';
import type { VaultService } from '../vault/vault-service';
import { editNote } from './edit-note-tool';
import { locateNote } from './note-locator';
import type { WriteMode } from './write-permissions';
import { proposeWrite, writeGuidance } from './write-proposal';

/** Changes to the vault's notes, checked and confined; nothing is written before their commit. */
export type NoteWriter = Pick<VaultService, 'prepareCreate' | 'prepareAppend' | 'prepareEdit'>;

/** What a write call needs besides its arguments. */
export interface WriteContext {
  mode: WriteMode;
  /** Whether the user still allows writes in the vault: the switch may be turned off mid-answer. */
  allowed: () => boolean;
  writer: NoteWriter;
  /** Whether the user allows writes in this chat without asking (`ask` mode): checked at each call. */
  allowedInChat: () => boolean;
  /** Waits for the user's decision on the call (`ask` mode). */
  decide: (callId: string, signal: AbortSignal) => Promise<boolean | 'stopped'>;
  /** Keeps what an approved call wrote over, so that the user can undo it. */
  record: (callId: string, change: ProposedChange, write: CommittedWrite) => void;
}

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
export const writeTools: readonly Tool[] = [createNote, appendToNote, editNote];
