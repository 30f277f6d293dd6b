import { describe, expect, it } from 'vitest';
import { importOnFirstUse } from '../../../src/main/lazy-import';
import { ModelError } from '../../../src/main/llm/llm-types';

describe('a module imported on first use', () => {
  it('is imported at the first ask only, and the same module is given after', async () => {
    let imports = 0;
    const load = importOnFirstUse('a test module', async () => ({ number: ++imports }));
    expect(imports).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    expect(await load()).toBe(first);
    expect(second).toBe(first);
    expect(imports).toBe(1);
  });

  it('that cannot be loaded fails in words naming it and why, of the caller’s kind, and is tried again', async () => {
    let attempts = 0;
    const load = importOnFirstUse(
      'the Anthropic provider (@ai-sdk/anthropic)',
      async () => {
        if (++attempts === 1) throw new Error("Cannot find package '@ai-sdk/anthropic'");
        return { loaded: true };
      },
      (message) => new ModelError(message, 'other'),
    );
    const failure = await load().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelError);
    expect((failure as ModelError).message).toBe(
      "Kasten could not load the Anthropic provider (@ai-sdk/anthropic): Cannot find package '@ai-sdk/anthropic'",
    );
    expect(await load()).toEqual({ loaded: true });
    expect(attempts).toBe(2);
  });
});
