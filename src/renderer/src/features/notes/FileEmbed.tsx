import { Paperclip } from 'lucide-react';
import { EmbeddedImage } from './EmbeddedImage';
import { embedKind } from './embed-kinds';
import { PdfEmbed } from './PdfEmbed';
import { useVaultFile } from './use-vault-file';
import './embeds.css';

const fileName = (path: string) => path.split('/').at(-1) ?? path;

/** `![[img.png|300]]` or `|300x200`: the width (and height) to show the image or video at. */
function size(display: string | null | undefined): { width?: number; height?: number } {
  const match = /^(\d+)(?:x(\d+))?$/.exec(display?.trim() ?? '');
  return match ? { width: Number(match[1]), height: match[2] ? Number(match[2]) : undefined } : {};
}

/**
 * A file of the vault embedded in a note, as Obsidian shows it: an image, an audio or video player, a
 * PDF viewer; any other file a chip naming it.
 */
export function FileEmbed({
  path,
  display,
  subpath,
  alt,
}: {
  path: string;
  /** What follows `|` in `![[file|…]]`: a size for images and videos. */
  display?: string | null;
  /** What follows `#`: `page=3` and `height=400` for a PDF. */
  subpath?: string | null;
  alt?: string;
}) {
  switch (embedKind(path)) {
    case 'image':
      return <EmbeddedImage path={path} alt={alt ?? display ?? fileName(path)} {...size(display)} />;
    case 'audio':
    case 'video':
      return <MediaEmbed path={path} display={display} />;
    case 'pdf':
      return <PdfEmbed path={path} subpath={subpath ?? null} />;
    case 'file':
      return (
        <span className="wikilink-embed" title={path}>
          <Paperclip size={14} aria-hidden /> {fileName(path)}
        </span>
      );
  }
}

/** An audio or video file of the vault with the browser's own controls; nothing plays until asked. */
function MediaEmbed({ path, display }: { path: string; display?: string | null }) {
  const { file, error } = useVaultFile(path);
  const name = fileName(path);
  if (error)
    return (
      <span className="embed-missing">
        {name}: {error}
      </span>
    );
  if (!file) return <span className="embed-loading" aria-busy="true" />;
  if (embedKind(path) === 'audio')
    return (
      <span className="media-embed">
        <audio className="embedded-audio" controls preload="metadata" src={file.url} aria-label={name} />
        <span className="media-embed-name">{name}</span>
      </span>
    );
  return (
    <video
      className="embedded-video"
      controls
      preload="metadata"
      src={file.url}
      aria-label={name}
      {...size(display)}
    />
  );
}
