import type { Sharp, SharpOptions } from 'sharp';
import { importOnFirstUse } from '../lazy-import';
import { fitImage, type ImageRule, type ImageSize } from './image-rules';

/** libvips through sharp, loaded with the first image (most sessions never see one). */
const sharpModule = importOnFirstUse('sharp (the image library)', () => import('sharp'));

/**
 * The most pixels an image may have to be decoded at all (about 7,000 × 7,000): a small file can claim
 * a huge canvas (a PNG "bomb"), which libvips refuses before allocating it.
 */
export const maxImagePixels = 50_000_000;
/** Images are kept at most this large on their long side: no provider uses more. */
const keptLongSide = 2048;

export interface NormalizedImage extends ImageSize {
  data: Buffer;
  mediaType: 'image/png' | 'image/jpeg';
}

/** An image that cannot be sent, with the sentence the user reads. */
export class ImageRefusal extends Error {
  constructor(
    message: string,
    readonly code: 'too-large' | 'unsupported',
  ) {
    super(message);
    this.name = 'ImageRefusal';
  }
}

const decoding: SharpOptions = {
  limitInputPixels: maxImagePixels,
  // An animation is sent as its first frame; a damaged file is an error, not a half-drawn picture.
  pages: 1,
  failOn: 'error',
};

async function decoder(bytes: Uint8Array): Promise<Sharp> {
  const { default: sharp } = await sharpModule();
  return sharp(bytes, decoding);
}

/**
 * A dropped, pasted or embedded image made safe to keep and send: decoded by libvips (an SVG is
 * rasterized by librsvg, which runs no scripts and, reading from memory, loads no other file), turned
 * upright, fitted in 2048 × 2048 and encoded again as PNG (with transparency) or JPEG, with none of
 * the original's metadata (EXIF, GPS, ICC profiles, comments).
 */
export async function normalizeImage(name: string, bytes: Uint8Array): Promise<NormalizedImage> {
  const quoted = `“${name}”`;
  try {
    const image = await decoder(bytes);
    const metadata = await image.metadata();
    const { width, height } = metadata;
    if (!width || !height) throw new Error('no size');
    const encoded = image
      .rotate()
      .resize(keptLongSide, keptLongSide, { fit: 'inside', withoutEnlargement: true });
    const alpha = metadata.hasAlpha;
    const output = alpha ? encoded.png({ compressionLevel: 9 }) : encoded.jpeg({ quality: 85 });
    const { data, info } = await output.toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, mediaType: alpha ? 'image/png' : 'image/jpeg' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw new ImageRefusal(
        `${quoted} is too large an image: it has more than ${maxImagePixels / 1_000_000} million pixels. Attach a smaller copy of it.`,
        'too-large',
      );
    }
    throw new ImageRefusal(
      `${quoted} could not be read as an image: the file is damaged or in a format Kasten cannot read (PNG, JPEG, GIF, WebP, AVIF, TIFF and SVG can be attached).`,
      'unsupported',
    );
  }
}

/**
 * The most one image may weigh as the base64 text that carries it: Anthropic refuses an image over 5 MB
 * (a photo-like PNG with transparency at its 1.15 megapixels can be 6), OpenAI one over 20 MB.
 */
const maxSentBase64: Record<ImageRule, number> = {
  'anthropic-area': 5 * 1024 * 1024,
  'openai-tiles': 20 * 1024 * 1024,
};
/** How much smaller each try makes an image that is still too heavy. */
const heavyScale = 0.8;

const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/**
 * A kept image as a provider takes it: scaled down to what `rule` uses, else as it is; then, while it
 * still weighs more than the provider takes, smaller again (it is counted at the fitted size, so the
 * meter shows a little more than goes out, never less).
 */
export async function imageForProvider(image: NormalizedImage, rule: ImageRule): Promise<NormalizedImage> {
  const fitted = fitImage(rule, image);
  let sent =
    fitted.width === image.width && fitted.height === image.height ? image : await resized(image, fitted);
  for (let tries = 0; base64Length(sent.data.length) > maxSentBase64[rule] && tries < 8; tries++) {
    const smaller = {
      width: Math.max(1, Math.floor(sent.width * heavyScale)),
      height: Math.max(1, Math.floor(sent.height * heavyScale)),
    };
    sent = await resized(image, smaller);
  }
  return sent;
}

/** `image` drawn again at `size`, in its own format. */
async function resized(image: NormalizedImage, size: ImageSize): Promise<NormalizedImage> {
  const drawn = (await decoder(image.data)).resize(size.width, size.height, { fit: 'fill' });
  const output =
    image.mediaType === 'image/png' ? drawn.png({ compressionLevel: 9 }) : drawn.jpeg({ quality: 85 });
  return { ...image, ...size, data: await output.toBuffer() };
}
