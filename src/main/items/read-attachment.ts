import { z } from 'zod';
import { defineTool, failure, success, type Tool } from '../tools/tool-registry';
import type { StoredAttachment } from './attachment-store';
import { escapeAttribute } from './attachment-text';

/** Characters of a file given in one call; a longer file is read part by part. */
const partCharacters = 24_000;
/** Files named in the tool's description: the most recent ones. */
const listed = 20;

/** Reads a file attached earlier in the chat again; failures are tool errors. */
export const readAttachment = defineTool({
  name: 'read_attachment',
  family: 'attachment',
  description: 'Read a file the user attached earlier in this chat, by its id.',
  input: z.object({
    id: z.number().int().min(1).describe('The attachment id, as in <attachment id="…">'),
    part: z.number().int().min(1).optional().describe('Which part of a long file, 1 first (default 1)'),
  }),
  include: 'always',
  documents: null,
  writes: false,
  guidance: 'Attached files come in <attachment> tags; read_attachment reads one not shown in full.',
  async run({ id, part: asked }, { attachments, sessionId }) {
    const file = attachments?.get(sessionId, id);
    if (!file) return failure(`This chat has no attachment with id ${id}.`);
    const parts = Math.max(1, Math.ceil(file.text.length / partCharacters));
    const part = Math.min(asked ?? 1, parts);
    const content = file.text.slice((part - 1) * partCharacters, part * partCharacters);
    const more = part < parts ? `Call read_attachment with part ${part + 1} for the next part.` : undefined;
    return success(
      JSON.stringify(
        // The name as the <attachment> tag gives it: a name that is markup cannot pass for Kasten's own.
        {
          attachment: file.id,
          name: escapeAttribute(file.name),
          part,
          parts,
          content,
          ...(more ? { more } : {}),
        },
        null,
        1,
      ),
    );
  },
});

/** read_attachment as a chat offers it: with the chat's files in its description. */
export function readAttachmentTool(files: readonly StoredAttachment[]): Tool {
  const names = files
    .slice(-listed)
    .map((file) => `${file.id}: "${escapeAttribute(file.name)}"`)
    .join(', ');
  return {
    ...readAttachment,
    description: `Read a file the user attached earlier in this chat, by its id (files: ${names}). Long files come in parts of about ${partCharacters.toLocaleString('en-US')} characters.`,
  };
}
