import type { StoredAttachment } from './attachment-store';

/** A file's name as it may stand in a tag's attribute: it cannot close the quote or the tag. */
export const escapeAttribute = (value: string) =>
  value.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);

function openingTag(file: Pick<StoredAttachment, 'id' | 'name' | 'kind' | 'pages'>, extra = ''): string {
  const pages = file.pages === null ? '' : ` pages="${file.pages}"`;
  return `<attachment id="${file.id}" name="${escapeAttribute(file.name)}" kind="${file.kind}"${pages}${extra}>`;
}

/** A file as the model is given it with the message it came with: its text inside a labelled tag. */
export function attachmentText(file: Omit<StoredAttachment, 'messageId' | 'tokens'>): string {
  const body = file.kind === 'code' ? `\`\`\`\`${file.language ?? ''}\n${file.text}\n\`\`\`\`` : file.text;
  const cut = file.truncated ? '\n[The file was cut: only its first part could be attached.]' : '';
  return `${openingTag(file)}\n${body}${cut}\n</attachment>`;
}

/** What stands in for a file the window has no room for: its name and size, and how to read it again. */
export function attachmentStub(
  file: Pick<StoredAttachment, 'id' | 'name' | 'kind' | 'pages' | 'tokens'>,
): string {
  return `${openingTag(file, ` tokens="${file.tokens}" shown="no"`)}Not shown here, to fit the context window. Call read_attachment with id ${file.id} to read it.</attachment>`;
}
