import { FileCode, FileText, LoaderCircle, TriangleAlert, X } from 'lucide-react';
import type { AttachmentKind } from '../../../../shared/attachment-domain';
import type { AttachmentInfo } from '../../../../shared/context-items-domain';
import { attachmentFacts } from './attachment-facts';
import type { ComposerFile } from './use-composer-attachments';
import './attachments.css';

function KindIcon({ kind }: { kind: AttachmentKind | null }) {
  return kind === 'code' ? <FileCode size={14} aria-hidden /> : <FileText size={14} aria-hidden />;
}

/** A file sent with a message: its name, kind, pages and what it cost. */
export function SentAttachmentChip({ file }: { file: Omit<AttachmentInfo, 'id' | 'messageId'> }) {
  return (
    <span className="attachment-chip" data-testid="attachment-chip" title={file.name}>
      <KindIcon kind={file.kind} />
      <span className="attachment-name">{file.name}</span>
      <span className="attachment-facts">{attachmentFacts(file)}</span>
    </span>
  );
}

/** A file on the composer: read and counted, still being read, or refused with the reason in red. */
export function ComposerAttachmentChip({ file, onRemove }: { file: ComposerFile; onRemove: () => void }) {
  const refused = file.state === 'refused';
  return (
    <span
      className={`attachment-chip attachment-${file.state}`}
      data-testid="attachment-chip"
      data-state={file.state}
      role={refused ? 'alert' : undefined}
    >
      {file.state === 'reading' ? (
        <LoaderCircle size={14} className="spin" aria-hidden />
      ) : refused ? (
        <TriangleAlert size={14} aria-hidden />
      ) : (
        <KindIcon kind={file.prepared?.kind ?? null} />
      )}
      {refused ? (
        <span className="attachment-refusal">{file.message}</span>
      ) : (
        <>
          <span className="attachment-name" title={file.name}>
            {file.name}
          </span>
          <span className="attachment-facts">
            {file.prepared ? attachmentFacts(file.prepared) : 'reading…'}
          </span>
        </>
      )}
      <button
        type="button"
        className="attachment-remove"
        aria-label={refused ? `Dismiss the message about ${file.name}` : `Remove ${file.name}`}
        title={refused ? 'Dismiss' : 'Remove'}
        onClick={onRemove}
      >
        <X size={14} aria-hidden />
      </button>
    </span>
  );
}
