import { imageSegments, mayHoldImages } from '../../images/image-marker';
import { imageTokens, type ImageRule } from '../../images/image-rules';

/** How a counter counts the images in a text: the provider's rule, in the counter's local units. */
export interface ImageCounting {
  rule: ImageRule;
  /**
   * The family's starting calibration factor: an image's tokens are the provider's own figure, so they
   * are divided by it to come out as that figure once calibrated (o200k × 1.25 for Claude).
   */
  factor: number;
}

/**
 * `countText` extended to texts holding image markers: each marker counts as its image does under the
 * provider's rule, the text around it as text.
 */
export function countingImages(
  countText: (text: string) => number,
  images: ImageCounting,
): (text: string) => number {
  return (text) => {
    if (!mayHoldImages(text)) return countText(text);
    let tokens = 0;
    for (const segment of imageSegments(text)) {
      tokens +=
        segment.type === 'text'
          ? countText(segment.text)
          : Math.round(imageTokens(images.rule, segment.image) / images.factor);
    }
    return tokens;
  };
}
