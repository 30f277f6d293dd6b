/**
 * How each provider sizes an image it is sent, and what it charges for it in prompt tokens. An image is
 * fitted to its provider's limits before it is sent (`fitImage`), and counted by that provider's rule on
 * the fitted size (`imageTokens`), so the figure the meter shows is the size of what goes out.
 */
export type ImageRule = 'openai-tiles' | 'anthropic-area';

export interface ImageSize {
  width: number;
  height: number;
}

/** OpenAI (high detail): fit in 2048 × 2048, then the short side down to 768; 512-pixel tiles. */
const openAiBox = 2048;
const openAiShortSide = 768;
const openAiTile = 512;
const openAiBase = 85;
const openAiPerTile = 170;

/** Anthropic: the long edge at most 1568 pixels and at most about 1.15 megapixels; tokens = w × h / 750. */
const anthropicLongEdge = 1568;
const anthropicPixels = 1_150_000;
const anthropicPixelsPerToken = 750;

/** `size` scaled by `factor` (never up), each side at least one pixel. */
function scaled(size: ImageSize, factor: number): ImageSize {
  if (factor >= 1) return size;
  return {
    width: Math.max(1, Math.floor(size.width * factor)),
    height: Math.max(1, Math.floor(size.height * factor)),
  };
}

/** The size an image is sent at under `rule`: never larger than the provider would use it. */
export function fitImage(rule: ImageRule, size: ImageSize): ImageSize {
  if (rule === 'anthropic-area') {
    const edge = anthropicLongEdge / Math.max(size.width, size.height);
    const area = Math.sqrt(anthropicPixels / (size.width * size.height));
    return scaled(size, Math.min(edge, area));
  }
  const boxed = scaled(size, openAiBox / Math.max(size.width, size.height));
  return scaled(boxed, openAiShortSide / Math.min(boxed.width, boxed.height));
}

/** Prompt tokens of an image of `size` (as it is before fitting) under `rule`. */
export function imageTokens(rule: ImageRule, size: ImageSize): number {
  const fitted = fitImage(rule, size);
  if (rule === 'anthropic-area') {
    return Math.ceil((fitted.width * fitted.height) / anthropicPixelsPerToken);
  }
  const tiles = Math.ceil(fitted.width / openAiTile) * Math.ceil(fitted.height / openAiTile);
  return openAiBase + openAiPerTile * tiles;
}

/**
 * The rule of a model family: Anthropic's for Claude; OpenAI's tiles for every other model, local ones
 * included (their projectors differ per model, and calibration learns the difference).
 */
export function imageRuleFor(family: string): ImageRule {
  return family === 'anthropic' ? 'anthropic-area' : 'openai-tiles';
}
