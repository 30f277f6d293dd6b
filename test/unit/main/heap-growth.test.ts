import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from '../../../src/main/index/heap-growth';

// setFlagsFromString ignores a flag V8 does not know: a Node whose V8 renamed this one would silently
// let the index's memory grow again (docs/PERFORMANCE.md has the figures). On the command line an
// unknown flag is refused, which is how this checks it.
describe('the heap growth flag', () => {
  const run = (flag: string) => spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });

  it('is a flag this Node’s V8 knows', () => {
    expect(run(heapGrowthFlag).status).toBe(0);
    const unknown = run(heapGrowthFlag.replace('growing', 'growling'));
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('bad option');
  });
});
