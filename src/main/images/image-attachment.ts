import {
  attachmentExtension,
  imageAttachmentExtensions,
  type AttachmentText,
} from '../../shared/attachment-domain';
import { imageMarker } from './image-marker';
import { normalizeImage } from './image-normalize';
import type { ImageStore } from './image-store';

/** The most images one message may carry: more is refused in words, not sent for the server to refuse. */
export const maxImagesPerMessage = 20;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  signature.every((byte, index) => bytes[at + index] === byte);

/**
 * Whether a dropped file is an image: by its extension, or by its first bytes when its name has none (a
 * pasted picture may come unnamed). A file named as text is read as text, whatever its bytes.
 */
export function isImageFile(name: string, bytes: Uint8Array): boolean {
  const extension = attachmentExtension(name);
  if (extension !== '') return imageAttachmentExtensions.has(extension);
  return (
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]) || // PNG
    startsWith(bytes, [0xff, 0xd8, 0xff]) || // JPEG
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) || // GIF8
    (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) // RIFF…WEBP
  );
}

/**
 * An image as an attachment: decoded, downscaled and re-encoded (image-normalize.ts), kept by hash, and
 * given to the model as a marker the model call turns into the provider's image part. Throws an
 * `ImageRefusal` in words when it cannot be read.
 */
export async function imageAttachment(
  store: ImageStore,
  name: string,
  bytes: Uint8Array,
): Promise<AttachmentText> {
  const image = await normalizeImage(name, bytes);
  const hash = store.put(image);
  const text = imageMarker({ hash, width: image.width, height: image.height, name });
  return {
    ok: true,
    name,
    kind: 'image',
    language: null,
    text,
    pages: null,
    bytes: bytes.length,
    truncated: false,
  };
}
