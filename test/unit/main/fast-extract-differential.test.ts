import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastExtractNote } from '../../../src/main/index/fast-extract';
import { extractNote } from '../../../src/shared/markdown/extract-note';
import type { NoteFacts, StructuralFacts } from '../../../src/shared/markdown/note-facts';
import { markdownDocument } from '../../support/markdown-arbitrary';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'vaults');
const sampleVault = join(import.meta.dirname, '..', '..', '..', 'resources', 'sample-vault');

function structural(facts: NoteFacts): StructuralFacts {
  const { title, aliases, tags, headings, blocks, links, markdownLinks } = facts;
  return { title, aliases, tags, headings, blocks, links, markdownLinks };
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

function expectSame(source: string, name = 'Note.md'): void {
  const reference = structural(extractNote(source, name));
  const fast = structural(fastExtractNote(source, name));
  expect(fast, `fast and reference extractors differ on:\n${source}`).toEqual(reference);
}

describe('the fast extractor equals the reference extractor', () => {
  it('on every note of every fixture vault and the sample vault', () => {
    const files = [...markdownFiles(fixtures), ...markdownFiles(sampleVault)];
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) expectSame(readFileSync(file, 'utf8'), file.slice(file.lastIndexOf('/') + 1));
  });

  it('on 2,500 generated documents', () => {
    fc.assert(
      fc.property(markdownDocument, (source) => expectSame(source)),
      { numRuns: 2500 },
    );
  }, 120_000);

  it('on a seeded corpus of 4,000 longer documents', () => {
    const corpus = fc.sample(
      // A byte-order mark only ever starts a file.
      fc
        .array(markdownDocument, { minLength: 1, maxLength: 4 })
        .map((parts) =>
          parts.map((part, index) => (index === 0 ? part : part.replace(/^\uFEFF/, ''))).join('\n'),
        ),
      { numRuns: 4000, seed: 20261122 },
    );
    let bytes = 0;
    for (const source of corpus) {
      bytes += source.length;
      expectSame(source);
    }
    expect(bytes).toBeGreaterThan(1_500_000);
  }, 240_000);
});
