import { readAttachmentContent, type AttachmentTask } from './attachment-content';
import type { AttachmentResult } from '../../shared/attachment-domain';

// Piscina calls the default export with each file in a worker thread; it is stopped by ending the thread.
export default function readInWorker(task: AttachmentTask): Promise<AttachmentResult> {
  return readAttachmentContent(task);
}
