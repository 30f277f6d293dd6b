import { describe, expect, it } from 'vitest';
import { mimeTypeOf } from '../../../src/main/vault/attachment-types';

describe('files embedded in notes', () => {
  it('are served with the content type their player needs', () => {
    const types = ['a.mp3', 'b.wav', 'c.m4a', 'd.ogg', 'e.flac', 'f.mp4', 'g.webm', 'h.mov', 'i.pdf'].map(
      mimeTypeOf,
    );
    expect(types).toEqual([
      'audio/mpeg',
      'audio/wav',
      'audio/mp4',
      'audio/ogg',
      'audio/flac',
      'video/mp4',
      'video/webm',
      'video/quicktime',
      'application/pdf',
    ]);
  });
});
