import {
  attachmentExtension,
  maxAttachmentCharacters,
  refuseBeforeReading,
  type AttachmentResult,
} from '../../shared/attachment-domain';
import { readPdfAttachment } from './pdf-attachment';
import { readTextAttachment } from './text-attachment';

/** One file to read, as it is sent to the worker thread. */
export interface AttachmentTask {
  name: string;
  bytes: Uint8Array;
  maxCharacters?: number;
}

const pdfSignature = '%PDF-';

/** A PDF by its extension, or by its signature at the very start (a note may quote it further on). */
export function isPdfAttachment(name: string, bytes: Uint8Array): boolean {
  if (attachmentExtension(name) === 'pdf') return true;
  return [...pdfSignature].every((character, index) => bytes[index] === character.charCodeAt(0));
}

/**
 * Reads an attached file in the calling thread. The kind comes from the name and the content: a PDF
 * by its extension or its opening signature (a `.pdf` that is not one is refused as damaged), known binary
 * formats by name, and everything else by whether its content is text.
 */
export async function readAttachmentContent(
  task: AttachmentTask,
  signal?: AbortSignal,
): Promise<AttachmentResult> {
  const { name, bytes, maxCharacters = maxAttachmentCharacters } = task;
  const early = refuseBeforeReading(name, bytes.length);
  if (early) return early;
  if (isPdfAttachment(name, bytes)) {
    return readPdfAttachment(name, bytes, signal, maxCharacters);
  }
  return readTextAttachment(name, bytes, maxCharacters);
}
