import { describe, expect, it } from 'vitest';
import type { ChatModel, LlmMessage, LlmRequest } from '../../../src/main/llm/llm-types';
import { imageMarker } from '../../../src/main/images/image-marker';
import { visionModel } from '../../../src/main/images/vision-model';

const hash = 'b'.repeat(64);
const marker = imageMarker({ hash, width: 40, height: 30, name: 'map.png' });
const kept = { data: Buffer.from('PNG-BYTES'), mediaType: 'image/png' as const, width: 40, height: 30 };

/** The messages the wrapped model was given. */
async function sent(messages: LlmMessage[], sees: boolean): Promise<LlmMessage[]> {
  let given: LlmMessage[] = [];
  const model: ChatModel = {
    name: 'm',
    async *stream(request: LlmRequest) {
      given = request.messages;
      yield { type: 'finish', usage: { inputTokens: null, outputTokens: null } };
    },
  };
  const wrapped = visionModel(model, {
    sees: async () => sees,
    rule: 'openai-tiles',
    image: (wanted) => (wanted === hash ? kept : null),
  });
  const request = { system: '', messages, tools: [], signal: new AbortController().signal };
  for await (const _event of wrapped.stream(request)) {
    // drained
  }
  return given;
}

describe('the model call with images', () => {
  it('puts each image of a user message in its place, between the text around it', async () => {
    const [message] = await sent([{ role: 'user', text: `before ${marker} after` }], true);
    expect(message).toMatchObject({
      role: 'user',
      parts: [
        { type: 'text', text: 'before ' },
        { type: 'image', mediaType: 'image/png', data: kept.data },
        { type: 'text', text: ' after' },
      ],
    });
  });

  it('tells a text-only model, in the text, that an image is there it cannot see', async () => {
    const [message] = await sent([{ role: 'user', text: `look ${marker}` }], false);
    expect(message).toEqual({ role: 'user', text: 'look [image “map.png”: this model cannot see images]' });
  });

  it('follows a marker only in the output of Kasten’s own reading tools, never in an MCP server’s', async () => {
    const messages = await sent(
      [
        {
          role: 'tool',
          results: [
            { id: '1', name: 'mcp__web__fetch', output: `page ${marker}`, isError: false },
            { id: '2', name: 'read_note', output: `note ${marker}`, isError: false },
          ],
        },
      ],
      true,
    );
    expect(messages).toHaveLength(2);
    const [tool, images] = messages as [
      Extract<LlmMessage, { role: 'tool' }>,
      Extract<LlmMessage, { role: 'user' }>,
    ];
    expect(tool.results[0]!.output).toBe('page [image “map.png”: not an image Kasten read]');
    expect(tool.results[1]!.output).toBe('note [image “map.png”: shown in the next message]');
    expect(images.parts?.filter((part) => part.type === 'image')).toHaveLength(1);
  });
});
