import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { startIndexedApp } from '../support/indexed-app';
import { dumpIndex } from '../support/index-dump';
import { tempWorkspace } from '../support/temp-vault';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const names = [
  'Alpha.md',
  'Beta.md',
  'sub/Alpha.md',
  'sub/Gamma.md',
  'deep/er/Delta.md',
  'Straße.md',
  'img.png',
];
const targets = [
  'Alpha',
  'Beta',
  'sub/Alpha',
  'Gamma',
  'Delta',
  'strasse',
  'Straße',
  'img.png',
  'Nowhere',
  'Al',
];

const body = fc
  .record({
    title: fc.constantFrom('', '---\naliases: [Al, Primary]\n---\n', '---\ntags: [x, y/z]\n---\n'),
    headings: fc.array(fc.constantFrom('Intro', 'Details', 'Part one'), { maxLength: 3 }),
    links: fc.array(
      fc.tuple(fc.constantFrom(...targets), fc.constantFrom('', '#Intro', '#Details', '#^b1', '|shown')),
      { maxLength: 4 },
    ),
    block: fc.boolean(),
  })
  .map(({ title, headings, links, block }) =>
    [
      title,
      ...headings.map((heading, index) => `${'#'.repeat(index + 1)} ${heading}\n`),
      links.map(([target, suffix]) => `See [[${target}${suffix}]].`).join(' '),
      block ? '\nA paragraph with a block id. ^b1\n' : '\n',
    ].join('\n'),
  );

type Operation =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'delete'; path: string };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), path: fc.constantFrom(...names), content: body }),
  fc.record({
    kind: fc.constant('rename' as const),
    from: fc.constantFrom(...names),
    to: fc.constantFrom(...names),
  }),
  fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...names) }),
);

function apply(vault: string, op: Operation): void {
  const at = (path: string) => join(vault, ...path.split('/'));
  if (op.kind === 'write') {
    mkdirSync(dirname(at(op.path)), { recursive: true });
    writeFileSync(at(op.path), op.path.endsWith('.png') ? 'PNG' + op.content.length : op.content);
  } else if (op.kind === 'delete') {
    rmSync(at(op.path), { force: true });
  } else if (existsSync(at(op.from)) && op.from !== op.to) {
    mkdirSync(dirname(at(op.to)), { recursive: true });
    renameSync(at(op.from), at(op.to));
  }
}

describe('the live index', () => {
  it('equals a fresh rebuild after any sequence of creates, edits, renames and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(operation, fc.nat(40)), { minLength: 1, maxLength: 14 }),
        fc.array(fc.tuple(fc.constantFrom(...names), body), { maxLength: 4 }),
        async (operations, initial) => {
          const ws = tempWorkspace();
          cleanups.push(ws.remove);
          mkdirSync(ws.vault, { recursive: true });
          for (const [path, content] of initial) apply(ws.vault, { kind: 'write', path, content });
          const live = await startIndexedApp(ws.dataDir, ws.vault, { watch: true });
          try {
            for (const [op, pause] of operations) {
              apply(ws.vault, op);
              if (pause > 20) await new Promise((resolve) => setTimeout(resolve, pause));
            }
            const fresh = await startIndexedApp(join(ws.base, 'fresh-data'), ws.vault);
            const expected = dumpIndex(fresh);
            await fresh.dispose();
            // The watcher delivers asynchronously: wait until the live index has caught up, then compare.
            const deadline = Date.now() + 6000;
            while (Date.now() < deadline) {
              await live.index.whenIdle();
              if (JSON.stringify(dumpIndex(live)) === JSON.stringify(expected)) break;
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            expect(dumpIndex(live)).toEqual(expected);
          } finally {
            await live.dispose();
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
