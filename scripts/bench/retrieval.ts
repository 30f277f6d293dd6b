// Search in three modes and related notes on a synthetic vault of 10k notes, in process, through the
// contract's handlers (embedding-handlers.ts) as a host calls them. Two vaults of the same shape: the
// worst case, whose 45-word vocabulary puts nearly every word in nearly every note, and one written with
// real sentences drawn from the eval vault's prose. The vectors are random unit vectors
// of 768 dimensions (nomic-embed-text's length) from an in-process stub model, stored by a real
// embedding run: the chunker cuts every note, the chunk store keeps one vector per passage. The stub
// answers at once, so the figures are Kasten's work (the query's own embedding by a real model, 10–30 ms
// on Ollama, comes on top the first time a query is seen; it is cached after that).
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { EmbeddingModel } from '../../src/main/llm/embedding-model.ts';
import { proseSentences } from '../../test/support/synthetic-vault.ts';
import { openEmbeddedVault } from './embedding-parts.ts';
import { random } from './seeded-random.ts';

/** The 45-word vocabulary (`words`), or sentences of the eval vault (`prose`). */
export type RetrievalVault = 'words' | 'prose';

export interface RetrievalFigures {
  vault: RetrievalVault;
  notes: number;
  passages: number;
  dimensions: number;
  /** Cutting every note into passages and storing their (stub) vectors. */
  buildMs: number;
  /** The first semantic search: loading every vector into memory. */
  firstSearchMs: number;
  /** How much the resident memory grew over the first semantic search, which loads the vectors. */
  vectorMegabytes: number;
  lexicalMs: number[];
  semanticMs: number[];
  hybridMs: number[];
  relatedByWordsMs: number[];
  relatedByMeaningMs: number[];
}

// One-word queries and questions, as vault-engine.ts asks them (most words are in most synthetic notes).
const queries = [
  'note',
  'zettel',
  'link',
  'summary',
  'method',
  'how does the slip box method work?',
  'what is a good habit for reading papers?',
  'where do I keep my research outline and draft?',
  'why should every claim have evidence?',
  'which book chapter has the quote?',
];

/** A model that answers at once with a random unit vector per text. */
function stubModel(dimensions: number, seed: number): EmbeddingModel {
  const next = random(seed);
  return {
    name: 'bench-random',
    identity: 'bench-random (in process)',
    async embed(texts) {
      return texts.map(() => {
        const vector = Array.from({ length: dimensions }, () => next() - 0.5);
        const norm = Math.hypot(...vector);
        return vector.map((value) => value / norm);
      });
    },
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** A full garbage collection, so that resident memory measures what is held rather than what is garbage. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const evalVault = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'vaults', 'eval');

export async function measureRetrieval(
  kind: RetrievalVault,
  notes = Number(process.env.BENCH_RETRIEVAL_NOTES ?? 10_000),
  rounds = Number(process.env.BENCH_RETRIEVAL_ROUNDS ?? 10),
  dimensions = 768,
  /** Another checkout whose services to measure (its src/); this one by default. */
  root?: string,
): Promise<RetrievalFigures> {
  const prose = kind === 'prose' ? proseSentences(evalVault) : undefined;
  const vault = await openEmbeddedVault(notes, 42, stubModel(dimensions, 7), prose, root);
  try {
    const built = performance.now();
    const report = await vault.service.run();
    if (report.error) throw new Error(report.error);
    const buildMs = performance.now() - built;
    const search = (query: string, mode: 'lexical' | 'semantic' | 'hybrid') =>
      vault.on.search({ query, limit: 20, mode });
    collectGarbage();
    const residentBefore = process.memoryUsage.rss();
    const firstSearchMs = await timed(() => search('note', 'semantic'));
    collectGarbage();
    const vectorMegabytes = (process.memoryUsage.rss() - residentBefore) / 1048576;
    // Each query once, to warm the code and the query cache (the stub's vectors are not the point).
    for (const query of queries) await search(query, 'hybrid');

    const figures: RetrievalFigures = {
      vault: kind,
      notes: vault.notes,
      passages: vault.service.status().embedded,
      dimensions,
      buildMs,
      firstSearchMs,
      vectorMegabytes,
      lexicalMs: [],
      semanticMs: [],
      hybridMs: [],
      relatedByWordsMs: [],
      relatedByMeaningMs: [],
    };
    for (let round = 0; round < rounds; round++) {
      for (const query of queries) {
        figures.lexicalMs.push(await timed(() => search(query, 'lexical')));
        figures.semanticMs.push(await timed(() => search(query, 'semantic')));
        figures.hybridMs.push(await timed(() => search(query, 'hybrid')));
      }
    }
    const next = random(11);
    // Half as many notes as searches: by words, one takes up to a fifth of a second here.
    for (let sample = 0; sample < (rounds * queries.length) / 2; sample++) {
      const path = vault.paths[Math.floor(next() * vault.paths.length)]!;
      figures.relatedByWordsMs.push(await timed(() => vault.off.related({ path, limit: 20 })));
      figures.relatedByMeaningMs.push(await timed(() => vault.on.related({ path, limit: 20 })));
    }
    return figures;
  } finally {
    await vault.close();
  }
}
