import { readAttachmentContent, type AttachmentTask } from './attachment-content';

// Run as a process of its own by the attachment reader (attachment-process.ts): one file per message,
// its result sent back. A read is stopped by ending the process.
process.on('message', (task: AttachmentTask) => {
  void readAttachmentContent(task).then((result) => process.send?.(result));
});
