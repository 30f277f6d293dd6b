import type { AttachmentInfo } from '../../../../shared/context-items-domain';
import { SentAttachmentChip } from '../attachments/AttachmentChip';

/** The files sent in this chat: each went to the model with its message. */
export function FileItems({ files }: { files: AttachmentInfo[] }) {
  if (files.length === 0) {
    return (
      <p className="items-empty small">
        Drop files on the message box, paste them, or use the paperclip: text, Markdown, code and PDF. Each
        stays with its message, and is listed here.
      </p>
    );
  }
  return (
    <ul className="item-list item-files">
      {files.map((file) => (
        <li key={file.id} data-testid="file-item">
          <SentAttachmentChip file={file} />
        </li>
      ))}
    </ul>
  );
}
