import { describe, expect, it } from 'vitest';
import { attachmentFacts, toBase64 } from '../../../src/renderer/src/features/attachments/attachment-facts';

describe('attachment chips', () => {
  it('say the kind, the pages of a PDF and the tokens, and when the text was cut', () => {
    expect(attachmentFacts({ kind: 'pdf', pages: 2, tokens: 1204, truncated: false })).toBe(
      'PDF, 2 pages · 1,204 tokens',
    );
    expect(attachmentFacts({ kind: 'pdf', pages: 1, tokens: 1, truncated: false })).toBe(
      'PDF, 1 page · 1 token',
    );
    expect(attachmentFacts({ kind: 'markdown', pages: null, tokens: 80, truncated: true })).toBe(
      'Markdown · 80 tokens (cut short)',
    );
  });

  it('encode bytes as base64, a large file in slices', () => {
    expect(toBase64(new TextEncoder().encode('Héron'))).toBe('SMOpcm9u');
    const large = new Uint8Array(100_000).map((_, index) => index % 251);
    expect(toBase64(large)).toBe(btoa(Array.from(large, (byte) => String.fromCharCode(byte)).join('')));
  });
});
