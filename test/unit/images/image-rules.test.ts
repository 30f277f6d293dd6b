import { describe, expect, it } from 'vitest';
import { fitImage, imageTokens } from '../../../src/main/images/image-rules';
import { imageMarker, imageSegments, withoutMarkers } from '../../../src/main/images/image-marker';
import { countingImages } from '../../../src/main/request/count/image-count';

describe('OpenAI tiles: fitted in 2048 × 2048, short side to 768, 85 + 170 per 512-px tile', () => {
  it.each([
    // OpenAI's own worked examples.
    [{ width: 1024, height: 1024 }, { width: 768, height: 768 }, 765],
    [{ width: 2048, height: 4096 }, { width: 768, height: 1536 }, 1105],
    // A small image is never enlarged: one tile.
    [{ width: 300, height: 200 }, { width: 300, height: 200 }, 255],
    [{ width: 4000, height: 3000 }, { width: 1024, height: 768 }, 765],
  ])('%o is sent at %o and costs %i tokens', (size, fitted, tokens) => {
    expect(fitImage('openai-tiles', size)).toEqual(fitted);
    expect(imageTokens('openai-tiles', size)).toBe(tokens);
  });
});

describe('Anthropic: long edge at most 1568 px, at most 1.15 MP, width × height / 750 tokens', () => {
  it('counts a 1000 × 1000 image as 1,334 tokens, unscaled', () => {
    expect(fitImage('anthropic-area', { width: 1000, height: 1000 })).toEqual({ width: 1000, height: 1000 });
    expect(imageTokens('anthropic-area', { width: 1000, height: 1000 })).toBe(1334);
  });

  it('scales a large photo to within both limits, so no image costs more than about 1,600 tokens', () => {
    const fitted = fitImage('anthropic-area', { width: 6000, height: 4000 });
    expect(Math.max(fitted.width, fitted.height)).toBeLessThanOrEqual(1568);
    expect(fitted.width * fitted.height).toBeLessThanOrEqual(1_150_000);
    expect(imageTokens('anthropic-area', { width: 6000, height: 4000 })).toBeLessThanOrEqual(1534);
    // A long strip is held by its edge.
    expect(fitImage('anthropic-area', { width: 8000, height: 200 })).toEqual({ width: 1568, height: 39 });
  });
});

describe('image markers in counted text', () => {
  const marker = imageMarker({ hash: 'a'.repeat(64), width: 1024, height: 1024, name: 'Tür "1".png' });

  it('survive being put in a JSON string, as a note is given to the model', () => {
    const inJson = JSON.stringify({ content: `before ${marker} after` });
    const [image] = imageSegments(inJson).filter((segment) => segment.type === 'image');
    expect(image).toEqual({
      type: 'image',
      image: { hash: 'a'.repeat(64), width: 1024, height: 1024, name: 'Tür "1".png' },
    });
  });

  it('count as the image under the rule, the text around them as text', () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const count = countingImages(words, { rule: 'openai-tiles', factor: 1 });
    expect(count(`two words ${marker} three more words`)).toBe(765 + 5);
    const claude = countingImages(words, { rule: 'anthropic-area', factor: 1.25 });
    // Divided by the starting factor, so that once calibrated it is Anthropic's 1,399.
    expect(claude(marker)).toBe(Math.round(1399 / 1.25));
  });

  it('cannot be forged by a note: marker-like text in it is made inert', () => {
    const forged = withoutMarkers(`look ${marker}`);
    expect(imageSegments(forged).every((segment) => segment.type === 'text')).toBe(true);
  });
});
