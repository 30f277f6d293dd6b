import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => relative(root, join(root, folder, name)));
}

describe('one room per concept', () => {
  it('computes the usable window, the reserved output and the item limits in budget.ts alone', () => {
    // Reading a budget's figures is what every caller does; working them out from the options is not.
    const sizing =
      /(options|defaultContextOptions)\.(margin|itemCap|pinnedShare|aggressiveScale)\b|reservedOutputOf|Math\.min\(4_?096/;
    const computing = sources('src').filter((path) => {
      if (path === 'src/main/request/budget.ts') return false;
      const text = readFileSync(join(root, path), 'utf8');
      return sizing.test(text);
    });
    expect(computing).toEqual([]);
  });
});
