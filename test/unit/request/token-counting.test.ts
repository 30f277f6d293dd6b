import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ContentCache } from '../../../src/main/request/count/content-cache';
import { countTokens } from '../../../src/main/request/count/token-count';
import { messageOverhead, TokenCounter } from '../../../src/main/request/count/token-counter';
import { anthropicFactor, tokenizerFor } from '../../../src/main/request/count/token-encodings';
import { toolSchemasOf } from '../../../src/main/request/sources/tool-schemas';

describe('the encoding of a model', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['o1', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['openai/gpt-4o', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['llama3.1:8b', 'o200k_base'],
    ['qwen3:14b', 'o200k_base'],
  ])('%s is counted with %s', (model, encoding) => {
    expect(tokenizerFor(model).encoding).toBe(encoding);
    expect(tokenizerFor(model).factor).toBe(1);
  });

  it('Claude is counted with o200k times the documented factor, by name or by provider', () => {
    expect(tokenizerFor('claude-sonnet-4-5')).toMatchObject({
      encoding: 'o200k_base',
      factor: anthropicFactor,
    });
    expect(tokenizerFor('anthropic/claude-3.5-haiku').factor).toBe(anthropicFactor);
    expect(tokenizerFor('some-proxy-name', 'anthropic').factor).toBe(anthropicFactor);
  });
});

describe('counting', () => {
  const o200k = new TokenCounter('o200k_base');
  const cl100k = new TokenCounter('cl100k_base');

  it('gives each encoding its own count', () => {
    const text = 'Zettelkasten über Grüße — 日本語のノート';
    expect(o200k.text(text)).toBe(12);
    expect(cl100k.text(text)).toBe(17);
    expect(o200k.text('Hello, world!')).toBe(4);
  });

  it('counts special-token text in a note as plain text instead of throwing', () => {
    const note = 'A note about tokenizers: <|endoftext|> ends a document, <|im_start|> opens a turn.';
    expect(() => o200k.text(note)).not.toThrow();
    expect(() => cl100k.text(note)).not.toThrow();
    expect(o200k.text('<|endoftext|>')).toBeGreaterThan(1);
    expect(countTokens('<|endoftext|>')).toBe(o200k.text('<|endoftext|>'));
  });

  it('adds the per-message overhead, and counts tool calls and each tool result', () => {
    expect(o200k.message({ role: 'user', text: 'hello world' })).toBe(messageOverhead + 2);
    const call = { id: 'c1', name: 'read_note', input: { note: 'Garden' } };
    expect(o200k.message({ role: 'assistant', text: 'hello world', toolCalls: [call] })).toBe(
      messageOverhead + 2 + messageOverhead + o200k.text('read_note') + o200k.text('{"note":"Garden"}'),
    );
    const result = (output: string) => ({ id: 'c1', name: 'read_note', output, isError: false });
    expect(o200k.message({ role: 'tool', results: [result('hello world'), result('Hello, world!')] })).toBe(
      2 * messageOverhead + 2 + 4,
    );
  });

  it('counts a tool schema as the function object sent on the wire', () => {
    const [schema] = toolSchemasOf([
      { name: 'read_note', description: 'Read a note.', input: z.object({ note: z.string() }) },
    ]);
    expect(schema!.parameters).toEqual({
      type: 'object',
      properties: { note: { type: 'string' } },
      required: ['note'],
      additionalProperties: false,
    });
    expect(o200k.tool(schema!)).toBe(
      o200k.text(
        JSON.stringify({
          type: 'function',
          function: { name: 'read_note', description: 'Read a note.', parameters: schema!.parameters },
        }),
      ),
    );
  });
});

describe('the content cache of counts', () => {
  it('counts the same content once, even when it arrives as another string object', () => {
    const cache = new ContentCache<number>();
    let counted = 0;
    const count = (text: string) => {
      counted++;
      return text.length;
    };
    const text = 'x'.repeat(5_000) + 'tail';
    const copy = JSON.parse(JSON.stringify(text)) as string;
    expect(cache.get(text, count)).toBe(5_004);
    expect(cache.get(copy, count)).toBe(5_004);
    expect(counted).toBe(1);
    // Same length and the same sampled characters, different content: counted on its own.
    const twin = 'x'.repeat(2_500) + 'y' + 'x'.repeat(2_499) + 'tail';
    cache.get(twin, count);
    expect(counted).toBe(2);
  });

  it('evicts the least recently used counts beyond its bound', () => {
    const cache = new ContentCache<number>(3);
    let counted = 0;
    const count = (text: string) => ++counted && text.length;
    for (const text of ['a', 'b', 'c']) cache.get(text, count);
    cache.get('a', count); // refreshes "a"
    cache.get('d', count); // evicts "b"
    expect(cache.size).toBe(3);
    cache.get('a', count);
    expect(counted).toBe(4);
    cache.get('b', count);
    expect(counted).toBe(5);
  });
});
