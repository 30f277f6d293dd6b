import type { AttachmentText } from '../../../shared/attachment-domain';
import type { ContextItemInput, HistoryAttachment } from '../context-types';
import type { StoredAttachment } from '../../items/attachment-store';
import { attachmentStub, attachmentText } from '../../items/attachment-text';

/** The files of each message, as the history gives them: whole, with a stub for when they do not fit. */
export function attachmentsOf(files: readonly StoredAttachment[]) {
  return (messageId: number): HistoryAttachment[] =>
    files
      .filter((file) => file.messageId === messageId)
      .map((file) => ({ text: attachmentText(file), stub: attachmentStub(file) }));
}

/** The files sent with the question being answered: items just above it. */
export function currentAttachments(
  files: readonly StoredAttachment[],
  questionId: number,
): ContextItemInput[] {
  return files
    .filter((file) => file.messageId === questionId)
    .map((file) => ({
      kind: 'attachment',
      label: file.name,
      include: 'manual',
      text: attachmentText(file),
      fallback: attachmentStub(file),
    }));
}

/** Files read for a message still being typed: counted as they will be sent (the meter's view). */
export function pendingAttachments(files: readonly { file: AttachmentText }[]): ContextItemInput[] {
  return files.map(({ file }) => ({
    kind: 'attachment',
    label: file.name,
    include: 'manual',
    text: attachmentText({ ...file, id: 0 }),
  }));
}
