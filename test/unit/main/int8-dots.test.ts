import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import wabt from 'wabt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Int8Rows, int8DotsWasm, int8Range } from '../../../src/main/embeddings/int8-dots';

const source = join(import.meta.dirname, '../../../src/main/embeddings/int8-dots.wat');

describe('int8 dot products in WebAssembly', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs the module int8-dots.wat compiles to', async () => {
    const tools = await wabt();
    const module = tools.parseWat('int8-dots.wat', readFileSync(source, 'utf8'));
    const compiled = Buffer.from(module.toBinary({}).buffer);
    expect(compiled.equals(Buffer.from(int8DotsWasm()))).toBe(true);
    // A fresh copy of the module, so that its rows compile their WebAssembly here, where it is watched.
    vi.resetModules();
    const fresh = await import('../../../src/main/embeddings/int8-dots');
    // Node's types leave WebAssembly to the DOM library.
    const webAssembly = (
      globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }
    ).WebAssembly;
    const compiling = vi.spyOn(webAssembly, 'Module');
    const rows = new fresh.Int8Rows(2, 3);
    rows.values.set([1, 2, 3], 0);
    rows.values.set([-4, 5, -6], rows.stride);
    expect([...rows.dots([7, 8, 9], 2)]).toEqual([50, -42]);
    expect(compiling).toHaveBeenCalledOnce();
    expect(Buffer.from(compiling.mock.calls[0]![0] as Uint8Array).equals(compiled)).toBe(true);
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
