import type { AttachmentKind } from '../../../../shared/attachment-domain';

const kindNames: Record<AttachmentKind, string> = {
  markdown: 'Markdown',
  text: 'text',
  code: 'code',
  pdf: 'PDF',
  image: 'image',
  web: 'web page',
};

/** A file's kind, pages and cost in a line: "PDF, 2 pages · 68 tokens", "Markdown · 1,204 tokens (cut)". */
export function attachmentFacts(file: {
  kind: AttachmentKind;
  pages: number | null;
  tokens: number;
  truncated: boolean;
}): string {
  const pages = file.pages === null ? '' : `, ${file.pages} ${file.pages === 1 ? 'page' : 'pages'}`;
  const tokens = `${file.tokens.toLocaleString('en-US')} ${file.tokens === 1 ? 'token' : 'tokens'}`;
  return `${kindNames[file.kind] ?? file.kind}${pages} · ${tokens}${file.truncated ? ' (cut short)' : ''}`;
}

/** A file's bytes in base64, as `attachments:prepare` takes them; in slices, so a large file fits the stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const slice = 0x8000;
  for (let at = 0; at < bytes.length; at += slice)
    binary += String.fromCharCode(...bytes.subarray(at, at + slice));
  return btoa(binary);
}
