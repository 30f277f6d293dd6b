/** What an embedded file shows as: Obsidian's formats for images, audio, video and PDF; else a chip. */
export type EmbedKind = 'image' | 'audio' | 'video' | 'pdf' | 'file';

const kinds: Record<string, EmbedKind> = {
  ...Object.fromEntries(
    'png jpg jpeg gif webp avif bmp svg'.split(' ').map((ext) => [ext, 'image' as const]),
  ),
  ...Object.fromEntries('mp3 wav m4a ogg oga flac 3gp'.split(' ').map((ext) => [ext, 'audio' as const])),
  // `.webm` may hold sound alone; a video element plays that too.
  ...Object.fromEntries('mp4 webm ogv mov mkv'.split(' ').map((ext) => [ext, 'video' as const])),
  pdf: 'pdf',
};

export function embedKind(path: string): EmbedKind {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && kinds[name.slice(dot + 1).toLowerCase()]) || 'file';
}
