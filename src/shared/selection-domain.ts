import { z } from 'zod';
import { groupDigits } from './group-digits';

/** The most a selection sent to the chat may hold; a longer one is refused in words, a shorter one cut to fit. */
export const maxSelectionChars = 200_000;

const notePath = z
  .string()
  .min(1, 'A path is required.')
  .max(4096)
  .refine((path) => !path.includes('\0'), 'A path cannot contain NUL.');

/** A passage the user selected in the note viewer, as the chat is sent it (`chat:send`'s `selection`). */
export const noteSelectionSchema = z
  .object({
    /** The note open in the viewer. */
    path: notePath,
    /** The heading the passage stands under; null before any heading. */
    heading: z.string().max(1000).nullable(),
    /** The text as the viewer rendered it (an embedded note's text included). */
    text: z
      .string()
      .max(
        maxSelectionChars,
        `The selection is longer than ${groupDigits(maxSelectionChars)} characters; select a shorter passage.`,
      )
      .refine((text) => text.trim() !== '', 'The selection is empty.'),
    /** The notes embedded in the passage that its text partly comes from. */
    embeds: z.array(notePath).max(100).optional(),
  })
  .strict();

export type NoteSelection = z.infer<typeof noteSelectionSchema>;

/** The passage a question asks about, kept with the question (its answer's requests, a retry). */
export interface SelectionPart {
  type: 'selection';
  step: number;
  selection: NoteSelection;
}

/** How much of a selection a reference keeps to show it and find it in the note again. */
export const selectionPreviewChars = 2000;
