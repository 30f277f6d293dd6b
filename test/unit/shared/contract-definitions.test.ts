import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { request } from '../../../src/shared/contract-definitions';
import { requestChannels, requests } from '../../../src/shared/contract';

describe('request channels', () => {
  it('build their input schema when it is first used, and once', () => {
    let built = 0;
    const definition = request<string>()(() => {
      built++;
      return z.object({ name: z.string().min(1) }).strict();
    });
    expect(built).toBe(0);
    expect(definition.input.safeParse({ name: 'x' }).success).toBe(true);
    expect(definition.input.safeParse({ name: '' }).success).toBe(false);
    expect(definition.input).toBe(definition.input);
    expect(built).toBe(1);
  });

  it('each of the contract has a schema that refuses what it does not take', () => {
    for (const channel of requestChannels) {
      const { input } = requests[channel];
      expect(input, channel).toBe(requests[channel].input);
      expect(input.safeParse(Symbol('not a payload')).success, channel).toBe(false);
    }
  });
});
