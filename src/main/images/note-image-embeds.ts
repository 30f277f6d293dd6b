import { attachmentExtension } from '../../shared/attachment-domain';
import type { ResolvedLink } from '../../shared/index-domain';
import { maxImagesPerMessage } from './image-attachment';
import { imageMarker, withoutMarkers } from './image-marker';
import { ImageRefusal, normalizeImage } from './image-normalize';
import type { ImageStore } from './image-store';

export interface NoteImageSources {
  /** The note's links, resolved as the index resolves them (an embed names a file of the vault or nothing). */
  links: (path: string, content: string) => ResolvedLink[];
  /** A vault file's bytes, read confined to the vault (a symlink leading out is refused). */
  readFile: (path: string) => Promise<Uint8Array>;
  store: ImageStore;
}

const imageExtensions: ReadonlySet<string> = new Set('png jpg jpeg gif webp avif tif tiff svg'.split(' '));

/** Where in `content` a link at 1-based `line` and `column` starts; null when its text is not there. */
function offsetOf(content: string, link: ResolvedLink): number | null {
  let offset = 0;
  for (let line = 1; line < link.line; line += 1) {
    const next = content.indexOf('\n', offset);
    if (next === -1) return null;
    offset = next + 1;
  }
  offset += link.column - 1;
  return content.startsWith(link.raw, offset) ? offset : null;
}

/**
 * A note as a model that sees images reads it: after each image it embeds (`![[x.png]]`, `![](x.png)`),
 * the image itself, as a marker the model call sends as an image. Only embeds the index resolved to a
 * file of the vault count, so one pointing outside it (`![](../x.png)`, an absolute path) is left as
 * text; the file is read confined to the vault. An image that cannot be read says why in its place;
 * past `maxImagesPerMessage` images the rest stay links. Marker-like text already in the note is made inert.
 */
export async function withEmbeddedImages(
  path: string,
  content: string,
  sources: NoteImageSources,
): Promise<string> {
  const embeds = sources
    .links(path, content)
    .filter((link) => link.embed && link.resolved && imageExtensions.has(attachmentExtension(link.resolved)))
    .flatMap((link) => {
      const offset = offsetOf(content, link);
      return offset === null ? [] : [{ link, end: offset + link.raw.length }];
    })
    .sort((a, b) => a.end - b.end)
    .slice(0, maxImagesPerMessage);
  let text = '';
  let last = 0;
  for (const { link, end } of embeds) {
    text += withoutMarkers(content.slice(last, end)) + (await embedded(link.resolved!, sources));
    last = end;
  }
  return text + withoutMarkers(content.slice(last));
}

async function embedded(file: string, sources: NoteImageSources): Promise<string> {
  try {
    const image = await normalizeImage(file, await sources.readFile(file));
    const hash = sources.store.put(image);
    return imageMarker({ hash, width: image.width, height: image.height, name: file });
  } catch (error) {
    const why = error instanceof ImageRefusal ? error.message : `“${file}” could not be read.`;
    return ` [image not shown: ${why}]`;
  }
}
