import { z } from 'zod';
import { defineTool } from '../tools/tool-registry';
import { locateNote } from './note-locator';
import { proposeWrite, writeGuidance } from './write-proposal';

/** Replaces one passage of a note, or the text of one heading's section; the user sees a word diff first. */
export const editNote = defineTool({
  name: 'edit_note',
  family: 'write',
  description:
    "Replace one passage of an existing note with new text, or the text of one heading's section (the heading line stays). Copy the passage exactly from the note (read_note): it must occur once, so include enough of the text around it. Nothing else in the note changes. The user sees the change word by word and approves or rejects it; the result says which.",
  input: z.object({
    note: z.string().min(1).describe('Note title, alias, wikilink target or vault-relative path'),
    passage: z
      .string()
      .min(1)
      .max(200_000)
      .optional()
      .describe('The exact text to replace, as the note has it; it must occur once in the note'),
    heading: z
      .string()
      .min(1)
      .optional()
      .describe('Instead of a passage: the heading whose section\'s text is replaced, such as "Ideas"'),
    replacement: z.string().max(200_000).describe('The new text that takes its place'),
  }),
  include: 'always',
  documents: null,
  writes: true,
  guidance: writeGuidance,
  run: ({ note, passage, heading, replacement }, context) =>
    proposeWrite(context, async () => {
      if ((passage === undefined) === (heading === undefined)) {
        throw new Error(
          'Give either the passage to replace or the heading whose section is replaced, not both and not neither.',
        );
      }
      const { path } = await locateNote(context.vault, note);
      const target = passage !== undefined ? { passage } : { heading: heading! };
      return context.writes.writer.prepareEdit(path, target, replacement);
    }),
});
