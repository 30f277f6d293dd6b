import {
  attachmentExtension,
  codeLanguages,
  markdownExtensions,
  maxAttachmentCharacters,
  refuseAttachment,
  type AttachmentKind,
  type AttachmentResult,
} from '../../shared/attachment-domain';
import { decodeText } from './text-decoding';

function kindOf(name: string): { kind: AttachmentKind; language: string | null } {
  const extension = attachmentExtension(name);
  if (markdownExtensions.includes(extension)) return { kind: 'markdown', language: null };
  const language = codeLanguages.get(extension);
  // Any other name (`.txt`, `.log`, none, unknown) is read as plain text when its content is text.
  return language === undefined ? { kind: 'text', language: null } : { kind: 'code', language };
}

/** Reads a Markdown, code or plain text file, refusing binary data, other encodings and blank files. */
export function readTextAttachment(
  name: string,
  bytes: Uint8Array,
  maxCharacters = maxAttachmentCharacters,
): AttachmentResult {
  const decoded = decodeText(bytes, maxCharacters);
  if (!decoded.ok && decoded.reason === 'not-utf8') {
    const message = `“${name}” is not saved as UTF-8 text, so Kasten cannot read it: save it as UTF-8 and attach it again.`;
    return refuseAttachment(name, 'binary', message);
  }
  if (!decoded.ok) return refuseAttachment(name, 'binary');
  if (decoded.text.trim() === '') return refuseAttachment(name, 'empty');
  return {
    ok: true,
    name,
    ...kindOf(name),
    text: decoded.text,
    pages: null,
    bytes: bytes.length,
    truncated: decoded.truncated,
  };
}
