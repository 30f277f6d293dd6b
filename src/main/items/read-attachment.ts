import { z } from 'zod';
import type { LlmTool } from '../llm/llm-types';
import type { AttachmentStore, StoredAttachment } from './attachment-store';
import { escapeAttribute } from './attachment-text';

/** Characters of a file given in one call; a longer file is read part by part. */
const partCharacters = 24_000;
/** Files named in the tool's description: the most recent ones. */
const listed = 20;

const input = z.object({
  id: z.number().int().min(1).describe('The attachment id, as in <attachment id="…">'),
  part: z.number().int().min(1).optional().describe('Which part of a long file, 1 first (default 1)'),
});

export const readAttachmentName = 'read_attachment';

/** The tool that reads a file attached earlier in the chat again, with the chat's files in its description. */
export function readAttachmentTool(files: readonly StoredAttachment[]): LlmTool {
  const names = files
    .slice(-listed)
    .map((file) => `${file.id}: "${escapeAttribute(file.name)}"`)
    .join(', ');
  return {
    name: readAttachmentName,
    description: `Read a file the user attached earlier in this chat, by its id (files: ${names}). Long files come in parts of about ${partCharacters.toLocaleString('en-US')} characters.`,
    input,
  };
}

/** Runs a read_attachment call against the session's files; failures are tool errors. */
export function runReadAttachment(
  store: Pick<AttachmentStore, 'get'>,
  sessionId: string,
  args: unknown,
): { ok: boolean; output: string } {
  const parsed = input.safeParse(args);
  if (!parsed.success) {
    return { ok: false, output: `Invalid arguments for read_attachment: ${parsed.error.issues[0]?.message}` };
  }
  const file = store.get(sessionId, parsed.data.id);
  if (!file) return { ok: false, output: `This chat has no attachment with id ${parsed.data.id}.` };
  const parts = Math.max(1, Math.ceil(file.text.length / partCharacters));
  const part = Math.min(parsed.data.part ?? 1, parts);
  const content = file.text.slice((part - 1) * partCharacters, part * partCharacters);
  const more = part < parts ? `Call read_attachment with part ${part + 1} for the next part.` : undefined;
  return {
    ok: true,
    output: JSON.stringify(
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
  };
}
