import type { LlmMessage } from '../../llm/llm-types';
import { ContentCache } from './content-cache';
import type { ToolSchema } from '../context-types';
import { cutHeadTail, type Cut } from '../fit/head-tail';
import { encodingCounter, type EncodingName } from './token-encodings';
import { countingImages, type ImageCounting } from './image-count';

/** What every chat message costs besides its content (role and separators), as OpenAI documents it. */
export const messageOverhead = 3;
/** The tokens that open the assistant's reply. */
export const replyPriming = 3;
/** What joining two texts with a blank line costs: one newline token. */
export const joinCost = 1;

/**
 * Local token counts in one encoding, cached by content. Counts are raw: the calibration ratio turns
 * them into the provider's tokens.
 */
export class TokenCounter {
  private readonly countRaw: (text: string) => number;
  private readonly cuts = new ContentCache<Map<string, Cut>>(10_000, 8_000_000);

  constructor(
    readonly encoding: EncodingName,
    private readonly counts = new ContentCache<number>(),
    /** How images in a text are counted; without it a marker counts as the text it is. */
    images?: ImageCounting,
  ) {
    const countText = encodingCounter(encoding);
    this.countRaw = images ? countingImages(countText, images) : countText;
  }

  text(text: string): number {
    if (text === '') return 0;
    return this.counts.get(text, this.countRaw);
  }

  /**
   * `cutHeadTail`, remembered by the text's content and `variant` (what the notice says, the limit):
   * the same old tool results are masked again in every request of a long conversation.
   */
  cut(text: string, maxTokens: number, notice: (omitted: number) => string, variant: string): Cut {
    const tokens = this.text(text);
    if (tokens <= maxTokens) return { text, tokens, omitted: 0 };
    const variants = this.cuts.get(text, () => new Map<string, Cut>());
    const key = `${maxTokens}\u0000${variant}`;
    let cut = variants.get(key);
    if (!cut) {
      cut = cutHeadTail(text, maxTokens, this, notice);
      variants.set(key, cut);
    }
    return cut;
  }

  /** A message with its overhead: text, each tool call's name and JSON arguments, each tool result. */
  message(message: LlmMessage): number {
    if (message.role === 'user') return messageOverhead + this.text(message.text);
    if (message.role === 'assistant') {
      let tokens = messageOverhead + this.text(message.text);
      for (const call of message.toolCalls) tokens += this.toolCall(call.name, call.input);
      return tokens;
    }
    // Providers send each result as a message of its own (OpenAI) or a block (Anthropic).
    let tokens = message.results.length === 0 ? messageOverhead : 0;
    for (const result of message.results) tokens += messageOverhead + this.text(result.output);
    return tokens;
  }

  toolCall(name: string, input: unknown): number {
    return messageOverhead + this.text(name) + this.text(JSON.stringify(input ?? {}));
  }

  /**
   * A tool's schema as it is sent: the OpenAI-style function object on the wire, which is also what
   * chat templates render (the `type` and `function` wrappers are tokens too, a tenth of a small schema).
   */
  tool(tool: ToolSchema): number {
    return this.text(toolDefinitionText(tool));
  }
}

/** A tool as it goes over the wire (an OpenAI function object): what its schema costs is what is counted. */
export function toolDefinitionText(tool: ToolSchema): string {
  const definition = { name: tool.name, description: tool.description, parameters: tool.parameters };
  return JSON.stringify({ type: 'function', function: definition });
}
