// Vector search over passages of 768 dimensions: brute force over float32 blobs (what Kasten keeps: the
// blobs in the index, held in memory rounded to int8 and scanned in WebAssembly, the best scored exactly
// from the blobs; before, one Float32Array scanned in JavaScript; and read from SQLite for each query)
// against sqlite-vec (a vec0 table's KNN, and its distance function over the same blobs).
// Writing: the vectors stored in batches of 32 (a request's worth), one transaction a batch, as a run does.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerSourceHooks } from './source-hooks.ts';
import { random } from './seeded-random.ts';

export interface VectorFigures {
  chunks: number;
  dimensions: number;
  methods: {
    name: string;
    /** Storing every vector, in batches. */
    writeMs: number;
    /** Before the first search: loading the vectors into memory (0 when nothing is loaded). */
    loadMs: number;
    searchMs: number[];
    /** The index file with the vectors (and, for brute force, the passages' rows), after a checkpoint. */
    megabytes: number;
    /** Memory held between searches. */
    heldMegabytes: number;
  }[];
}

const batch = 32;

function unitVectors(count: number, dimensions: number, next: () => number): Float32Array[] {
  return Array.from({ length: count }, () => {
    const vector = new Float32Array(dimensions);
    let sum = 0;
    for (let i = 0; i < dimensions; i++) {
      vector[i] = next() - 0.5;
      sum += vector[i]! * vector[i]!;
    }
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
    return vector;
  });
}

function fileMegabytes(file: string): number {
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return (size(file) + size(`${file}-wal`)) / 1e6;
}

/** sqlite-vec's loadable extension, or null when the package is not installed here. */
async function sqliteVecPath(): Promise<string | null> {
  try {
    // By name at run time: the benchmark skips sqlite-vec's rows where it is not installed.
    const extension = 'sqlite-vec';
    const { getLoadablePath } = (await import(extension)) as { getLoadablePath: () => string };
    return getLoadablePath();
  } catch {
    return null;
  }
}

export async function measureEmbeddingSearch(
  sizes = [10_000, 50_000],
  dimensions = 768,
  queries = Number(process.env.BENCH_VECTOR_QUERIES ?? 50),
): Promise<VectorFigures[]> {
  registerSourceHooks();
  const [{ openIndexDatabase }, { ChunkStore }, { VectorMatrix }, { dot, fromBlob }] = await Promise.all([
    import('../../src/main/storage/index-database.ts'),
    import('../../src/main/embeddings/chunk-store.ts'),
    import('../../src/main/embeddings/vector-matrix.ts'),
    import('../../src/main/embeddings/vectors.ts'),
  ]);
  const vecPath = await sqliteVecPath();
  const figures: VectorFigures[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'kasten-bench-vectors-'));
  try {
    for (const chunks of sizes) {
      const next = random(chunks);
      const vectors = unitVectors(chunks, dimensions, next);
      const probes = unitVectors(queries, dimensions, next);
      const result: VectorFigures = { chunks, dimensions, methods: [] };
      const passage = 'A passage of a note, about as long as the snippet search shows. '.repeat(4);

      // Brute force: the index's chunks table, five passages a note.
      const file = join(dir, `brute-${chunks}.sqlite`);
      const db = openIndexDatabase(file);
      const store = new ChunkStore(db);
      const insertNote = db.prepare(
        "INSERT INTO notes (path, title, lead, word_count, size, mtime_ms, hash) VALUES (?, ?, '', 0, 0, 0, '')",
      );
      db.transaction(() => {
        for (let note = 0; note < chunks / 5; note++) insertNote.run(`note-${note}.md`, `Note ${note}`);
      })();
      for (let note = 0; note < chunks / 5; note++) {
        const hashes = Array.from({ length: 5 }, (_, i) => ({
          headingPath: [`Section ${i}`],
          text: passage,
          hash: `${note}-${i}`,
        }));
        store.replaceChunks(`note-${note}.md`, '', hashes);
      }
      let started = performance.now();
      for (let start = 0; start < chunks; start += batch) {
        store.storeVectors(
          vectors.slice(start, start + batch).map((vector, i) => {
            const index = start + i;
            return { hash: `${Math.floor(index / 5)}-${index % 5}`, vector };
          }),
        );
      }
      const writeMs = performance.now() - started;
      db.pragma('wal_checkpoint(TRUNCATE)');
      const megabytes = fileMegabytes(file);

      // Read from SQLite for every query: no memory held.
      const fromSqlite: number[] = [];
      for (const query of probes) {
        started = performance.now();
        let best = -2;
        for (const [, , blob] of store.vectors()) best = Math.max(best, dot(fromBlob(blob), query));
        fromSqlite.push(performance.now() - started);
      }
      result.methods.push({
        name: 'brute force, blobs read per query',
        writeMs,
        loadMs: 0,
        searchMs: fromSqlite,
        megabytes,
        heldMegabytes: 0,
      });

      // The scan before: every float32 vector in memory, in JavaScript.
      started = performance.now();
      const floats = new Float32Array(store.vectorCount() * dimensions);
      let loaded = 0;
      for (const [, , blob] of store.vectors()) floats.set(fromBlob(blob), dimensions * loaded++);
      const floatLoadMs = performance.now() - started;
      result.methods.push({
        name: 'float32 in memory, JavaScript scan (before)',
        writeMs,
        loadMs: floatLoadMs,
        searchMs: probes.map((query) => {
          const at = performance.now();
          nearestByFloat32(floats, dimensions, query, 5, 20);
          return performance.now() - at;
        }),
        megabytes,
        heldMegabytes: (chunks * dimensions * 4) / 1e6,
      });

      started = performance.now();
      const matrix = new VectorMatrix(store.vectorCount(), store.vectors(), dimensions, store);
      const loadMs = performance.now() - started;
      const inMemory = probes.map((query) => {
        const at = performance.now();
        matrix.nearestNotes(query, 20);
        return performance.now() - at;
      });
      result.methods.push({
        name: 'int8 in memory, WebAssembly, exact (kept)',
        writeMs,
        loadMs,
        searchMs: inMemory,
        megabytes,
        // int8 rows of 768 bytes, and a scale, two error terms, an id and a note per row.
        heldMegabytes: (chunks * (Math.ceil(dimensions / 32) * 32 + 32)) / 1e6,
      });

      if (vecPath) {
        db.loadExtension(vecPath);
        const distance = db.prepare(
          'SELECT id, vec_distance_cosine(vector, ?) AS distance FROM chunks WHERE vector IS NOT NULL ORDER BY distance LIMIT 20',
        );
        result.methods.push({
          name: 'sqlite-vec vec_distance_cosine over blobs',
          writeMs,
          loadMs: 0,
          searchMs: probes.map((query) => {
            const at = performance.now();
            distance.all(Buffer.from(query.buffer));
            return performance.now() - at;
          }),
          megabytes,
          heldMegabytes: 0,
        });
      }
      db.close();

      if (vecPath) {
        // vec0: the vectors in sqlite-vec's own table; the passages' rows would stay beside it, without vectors.
        const vecFile = join(dir, `vec0-${chunks}.sqlite`);
        const vec = openIndexDatabase(vecFile);
        vec.loadExtension(vecPath);
        const vecStore = new ChunkStore(vec);
        vec.exec(
          `CREATE VIRTUAL TABLE chunk_vectors USING vec0(embedding float[${dimensions}] distance_metric=cosine)`,
        );
        for (let note = 0; note < chunks / 5; note++) {
          vecStore.replaceChunks(
            `note-${note}.md`,
            '',
            Array.from({ length: 5 }, (_, i) => ({
              headingPath: [`Section ${i}`],
              text: passage,
              hash: `${note}-${i}`,
            })),
          );
        }
        const insert = vec.prepare('INSERT INTO chunk_vectors (rowid, embedding) VALUES (?, ?)');
        started = performance.now();
        for (let start = 0; start < chunks; start += batch) {
          vec.transaction(() => {
            vectors.slice(start, start + batch).forEach((vector, i) => {
              insert.run(BigInt(start + i + 1), Buffer.from(vector.buffer));
            });
          })();
        }
        const vecWriteMs = performance.now() - started;
        vec.pragma('wal_checkpoint(TRUNCATE)');
        const knn = vec.prepare(
          'SELECT rowid, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = 20',
        );
        result.methods.push({
          name: 'sqlite-vec vec0 KNN',
          writeMs: vecWriteMs,
          loadMs: 0,
          searchMs: probes.map((query) => {
            const at = performance.now();
            knn.all(Buffer.from(query.buffer));
            return performance.now() - at;
          }),
          megabytes: fileMegabytes(vecFile),
          heldMegabytes: 0,
        });
        vec.close();
      }
      figures.push(result);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** The `limit` best notes of `perNote` passages each, by the float32 scan in JavaScript Kasten had before. */
function nearestByFloat32(
  data: Float32Array,
  dimensions: number,
  query: Float32Array,
  perNote: number,
  limit: number,
): number[] {
  const rows = data.length / dimensions;
  const best = new Float32Array(Math.ceil(rows / perNote)).fill(Number.NEGATIVE_INFINITY);
  for (let row = 0; row < rows; row++) {
    const offset = row * dimensions;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < dimensions; i += 4) {
      s0 += data[offset + i]! * query[i]!;
      s1 += data[offset + i + 1]! * query[i + 1]!;
      s2 += data[offset + i + 2]! * query[i + 2]!;
      s3 += data[offset + i + 3]! * query[i + 3]!;
    }
    const note = Math.floor(row / perNote);
    best[note] = Math.max(best[note]!, s0 + s1 + s2 + s3);
  }
  return [...best.keys()].sort((a, b) => best[b]! - best[a]!).slice(0, limit);
}
