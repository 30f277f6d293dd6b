import { readNote } from '../chat/vault-tools';
import { readAttachment } from '../items/read-attachment';
import type { ChatModel, LlmMessage, LlmRequest, LlmUserPart } from '../llm/llm-types';
import { imageSegments, mayHoldImages, type ImageMarker } from './image-marker';
import { imageForProvider, type NormalizedImage } from './image-normalize';
import type { ImageRule } from './image-rules';

export interface VisionModelOptions {
  /** Whether the model takes images (asked once per request). */
  sees: () => Promise<boolean>;
  /** The provider's rule: images are scaled to what it uses before they go out. */
  rule: ImageRule;
  /** The kept image of a hash; null when none is kept. */
  image: (hash: string) => NormalizedImage | null;
}

/**
 * The tools whose results hold images Kasten put there itself (a note's embeds, an attached image): a
 * marker in any other tool's output (an MCP server's, a web page) came from outside and is not followed.
 */
const imageTools: ReadonlySet<string> = new Set([readNote.name, readAttachment.name]);

/** What stands in a text for an image that is not sent, and why. */
const notShown = (image: ImageMarker, why: string) => `[image “${image.name}”: ${why}]`;

/**
 * `model` with the images its requests name sent as images: each marker in a user message becomes an
 * image part in its place, scaled to the provider's limits; the images of a tool's result (a note
 * read_note gave) follow it in a user message, since only some providers take images in a tool
 * result. For a model that does not take images, each marker becomes a line saying so.
 */
export function visionModel(model: ChatModel, options: VisionModelOptions): ChatModel {
  return {
    name: model.name,
    async *stream(request: LlmRequest) {
      if (!request.messages.some(holdsImages)) return yield* model.stream(request);
      const sees = await options.sees();
      const messages: LlmMessage[] = [];
      for (const message of request.messages) messages.push(...(await sent(message, sees, options)));
      yield* model.stream({ ...request, messages });
    },
  };
}

function holdsImages(message: LlmMessage): boolean {
  if (message.role === 'user') return mayHoldImages(message.text);
  if (message.role === 'tool') return message.results.some((result) => mayHoldImages(result.output));
  return false;
}

async function sent(message: LlmMessage, sees: boolean, options: VisionModelOptions): Promise<LlmMessage[]> {
  if (!holdsImages(message)) return [message];
  if (message.role === 'user') {
    const parts = await partsOf(message.text, sees, options);
    const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return [
      parts.some((part) => part.type === 'image') ? { role: 'user', text, parts } : { role: 'user', text },
    ];
  }
  if (message.role !== 'tool') return [message];
  const images: LlmUserPart[] = [];
  const results = [];
  for (const result of message.results) {
    let output = '';
    for (const segment of imageSegments(result.output)) {
      if (segment.type === 'text') output += segment.text;
      else if (!imageTools.has(result.name)) output += notShown(segment.image, 'not an image Kasten read');
      else {
        const part = sees ? await imagePart(segment.image, options) : null;
        if (part)
          images.push({ type: 'text', text: `Image “${segment.image.name}” from ${result.name}:` }, part);
        output += notShown(segment.image, part ? 'shown in the next message' : whyNot(sees));
      }
    }
    results.push({ ...result, output });
  }
  const tool: LlmMessage = { role: 'tool', results };
  return images.length === 0 ? [tool] : [tool, { role: 'user', text: '', parts: images }];
}

async function partsOf(text: string, sees: boolean, options: VisionModelOptions): Promise<LlmUserPart[]> {
  const parts: LlmUserPart[] = [];
  const addText = (value: string) => {
    const last = parts.at(-1);
    if (last?.type === 'text') last.text += value;
    else if (value !== '') parts.push({ type: 'text', text: value });
  };
  for (const segment of imageSegments(text)) {
    if (segment.type === 'text') addText(segment.text);
    else {
      const part = sees ? await imagePart(segment.image, options) : null;
      if (part) parts.push(part);
      else addText(notShown(segment.image, whyNot(sees)));
    }
  }
  return parts;
}

const whyNot = (sees: boolean) =>
  sees ? 'no longer kept, so it cannot be shown' : 'this model cannot see images';

async function imagePart(marker: ImageMarker, options: VisionModelOptions): Promise<LlmUserPart | null> {
  const kept = options.image(marker.hash);
  if (!kept) return null;
  const image = await imageForProvider(kept, options.rule);
  return { type: 'image', data: image.data, mediaType: image.mediaType };
}
