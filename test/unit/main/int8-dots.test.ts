import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import wabt from 'wabt';
import { describe, expect, it } from 'vitest';
import { Int8Rows, int8DotsWasm, int8Range } from '../../../src/main/embeddings/int8-dots';

const source = join(import.meta.dirname, '../../../src/main/embeddings/int8-dots.wat');

describe('int8 dot products in WebAssembly', () => {
  it('runs the module int8-dots.wat compiles to', async () => {
    const tools = await wabt();
    const module = tools.parseWat('int8-dots.wat', readFileSync(source, 'utf8'));
    expect(Buffer.from(module.toBinary({}).buffer).equals(Buffer.from(int8DotsWasm()))).toBe(true);
  });

  it('gives the exact integer dot products, padding and the largest values included', () => {
    let seed = 5;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (const dimensions of [1, 31, 32, 100, 768, 1536]) {
      const rows = 37;
      const int8 = new Int8Rows(rows, dimensions);
      expect(int8.stride % 32).toBe(0);
      const values: number[][] = [];
      for (let row = 0; row < rows; row++) {
        // The last rows hold the extremes: every product as large as allowed, of one sign.
        const value = () =>
          row === rows - 1 ? int8Range : row === rows - 2 ? -int8Range : Math.round(next() * int8Range);
        values.push(Array.from({ length: dimensions }, value));
        int8.values.set(values[row]!, row * int8.stride);
      }
      for (const query of [
        Array.from({ length: dimensions }, () => Math.round(next() * int8.queryRange)),
        Array.from({ length: dimensions }, () => int8.queryRange),
      ]) {
        const expected = values.map((row) => row.reduce((sum, value, i) => sum + value * query[i]!, 0));
        expect([...int8.dots(query, rows)]).toEqual(expected);
      }
    }
  });
});
