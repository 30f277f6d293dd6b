import type { ImageSize } from './image-rules';

/**
 * An image stands in a text the request pipeline handles (an attachment, a note the model reads) as a
 * marker naming it by content hash with its size: the text is counted, fitted, stored and replayed like
 * any other, and only the model call turns each marker into the provider's image part.
 */
export interface ImageMarker extends ImageSize {
  /** SHA-256 of the stored image's bytes, in hex. */
  hash: string;
  /** The file's name, for stubs and errors. */
  name: string;
}

// No character of a marker is one JSON escapes (the name is percent-encoded): a note's text is given to the
// model inside a JSON string, and its markers must read the same there.
const markerPattern =
  /<kasten-image sha256=([0-9a-f]{64}) size=(\d{1,5})x(\d{1,5}) name=([A-Za-z0-9%\-_.!~*'()]*)\/>/g;

export function imageMarker(image: ImageMarker): string {
  return `<kasten-image sha256=${image.hash} size=${image.width}x${image.height} name=${encodeURIComponent(image.name)}/>`;
}

function decodedName(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** Quick test before a text is searched for markers: most texts hold none. */
export const mayHoldImages = (text: string): boolean => text.includes('<kasten-image ');

/** A text cut into its runs of text and the images between them, in order. */
export type ImageSegment = { type: 'text'; text: string } | { type: 'image'; image: ImageMarker };

export function imageSegments(text: string): ImageSegment[] {
  if (!mayHoldImages(text)) return [{ type: 'text', text }];
  const segments: ImageSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(markerPattern)) {
    if (match.index > last) segments.push({ type: 'text', text: text.slice(last, match.index) });
    const [, hash, width, height, name] = match;
    segments.push({
      type: 'image',
      image: { hash: hash!, width: Number(width), height: Number(height), name: decodedName(name!) },
    });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ type: 'text', text: text.slice(last) });
  return segments;
}

/** The images a text holds, in order. */
export function imagesIn(text: string): ImageMarker[] {
  return imageSegments(text).flatMap((segment) => (segment.type === 'image' ? [segment.image] : []));
}

/**
 * A text from outside (a note) with any marker-like text in it made inert, so that a note cannot name
 * an image it does not embed.
 */
export function withoutMarkers(text: string): string {
  return mayHoldImages(text) ? text.replaceAll('<kasten-image ', '&lt;kasten-image ') : text;
}
