import { fromBlob } from './vectors';

/** A note's best passage for a query vector. */
export interface NoteMatch {
  path: string;
  /** The passage's id in the chunks table. */
  chunkId: number;
  similarity: number;
}

/**
 * Every stored vector in one Float32Array, scanned whole for each query (brute force). Measured against
 * reading the blobs from SQLite for each query and against sqlite-vec's vec0 table (see
 * scripts/bench/embeddings.ts): for 50k passages of 768 dimensions a scan here takes a tenth of reading the
 * blobs and half of vec0's, for 4 bytes a dimension of memory (150 MB at 50k × 768).
 */
export class VectorMatrix {
  readonly rows: number;
  readonly dimensions: number;
  private readonly data: Float32Array;
  private readonly chunkIds: Int32Array;
  /** The index in `paths` of each row's note. */
  private readonly noteOf: Int32Array;
  private readonly paths: string[];
  private readonly noteIndex = new Map<string, number>();
  private mean: Float32Array | null = null;

  /** `rows` yields at most `count` vectors; those not `dimensions` long are left out. */
  constructor(count: number, rows: Iterable<[number, string, Uint8Array]>, dimensions: number) {
    // Filled as the rows come, so that only one blob at a time is held besides the matrix.
    const data = new Float32Array(count * dimensions);
    const ids = new Int32Array(count);
    const notes = new Int32Array(count);
    this.paths = [];
    let row = 0;
    for (const [id, path, blob] of rows) {
      if (row === count) break;
      if (blob.byteLength !== dimensions * 4) continue;
      let note = this.noteIndex.get(path);
      if (note === undefined) {
        note = this.paths.push(path) - 1;
        this.noteIndex.set(path, note);
      }
      ids[row] = id;
      notes[row] = note;
      data.set(fromBlob(blob), row * dimensions);
      row++;
    }
    this.rows = row;
    this.dimensions = dimensions;
    this.data = data.subarray(0, row * dimensions);
    this.chunkIds = ids.subarray(0, row);
    this.noteOf = notes.subarray(0, row);
  }

  /**
   * The similarity of `query` to the average passage: what a passage unrelated to it scores with this
   * model (nomic-embed-text puts unrelated passages at 0.3–0.5, other models near 0).
   */
  baseline(query: Float32Array, without?: string): number {
    if (this.rows === 0) return 0;
    if (!this.mean) {
      const mean = new Float32Array(this.dimensions);
      for (let at = 0; at < this.data.length; at += this.dimensions) {
        for (let i = 0; i < this.dimensions; i++) mean[i]! += this.data[at + i]! / this.rows;
      }
      this.mean = mean;
    }
    let dot = 0;
    for (let i = 0; i < this.dimensions; i++) dot += query[i]! * this.mean[i]!;
    // A note compared with the others: its own passages, alike by definition, would raise the bar.
    const own = without === undefined ? [] : this.vectorsOf(without);
    if (own.length === 0 || own.length === this.rows) return dot;
    const ownSum = own.reduce(
      (sum, vector) => sum + vector.reduce((acc, value, i) => acc + value * query[i]!, 0),
      0,
    );
    return (dot * this.rows - ownSum) / (this.rows - own.length);
  }

  /**
   * The matches standing out from the rest: at least `share` of the way from the baseline to the best
   * match. Without a floor every note came back, best first, as a "semantic" hit or a missing link.
   */
  standingOut(query: Float32Array, matches: NoteMatch[], share: number, without?: string): NoteMatch[] {
    const base = this.baseline(query, without);
    const best = Math.max(...matches.map((match) => match.similarity));
    return matches.filter(
      (match) => match.similarity > base && match.similarity >= base + share * (best - base),
    );
  }

  /** Whether the note at `path` has vectors. */
  has(path: string): boolean {
    return this.noteIndex.has(path);
  }

  /** The vectors of the note at `path`. */
  vectorsOf(path: string): Float32Array[] {
    const note = this.noteIndex.get(path);
    const vectors: Float32Array[] = [];
    if (note === undefined) return vectors;
    for (let row = 0; row < this.rows; row++) {
      if (this.noteOf[row] === note)
        vectors.push(this.data.subarray(row * this.dimensions, (row + 1) * this.dimensions));
    }
    return vectors;
  }

  /**
   * The `limit` notes with the passages most similar to `query` (a unit vector), best first, each with
   * its best passage; only notes `admit` accepts.
   */
  nearestNotes(query: Float32Array, limit: number, admit?: (path: string) => boolean): NoteMatch[] {
    const best = new Float32Array(this.paths.length).fill(Number.NEGATIVE_INFINITY);
    const bestRow = new Int32Array(this.paths.length).fill(-1);
    const admitted = Uint8Array.from(this.paths, (path) => (!admit || admit(path) ? 1 : 0));
    const { data, dimensions, noteOf } = this;
    const whole = dimensions - (dimensions % 4);
    for (let row = 0; row < this.rows; row++) {
      const note = noteOf[row]!;
      if (admitted[note] === 0) continue;
      const offset = row * dimensions;
      // Four sums at once, each loop with its own counter: twice as fast in V8 as one sum, or one
      // counter shared by the two loops.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < whole; i += 4) {
        s0 += data[offset + i]! * query[i]!;
        s1 += data[offset + i + 1]! * query[i + 1]!;
        s2 += data[offset + i + 2]! * query[i + 2]!;
        s3 += data[offset + i + 3]! * query[i + 3]!;
      }
      for (let i = whole; i < dimensions; i++) s0 += data[offset + i]! * query[i]!;
      const similarity = s0 + s1 + s2 + s3;
      if (similarity > best[note]!) {
        best[note] = similarity;
        bestRow[note] = row;
      }
    }
    const notes: number[] = [];
    for (let note = 0; note < this.paths.length; note++) if (bestRow[note]! >= 0) notes.push(note);
    notes.sort((a, b) => best[b]! - best[a]! || a - b);
    return notes.slice(0, limit).map((note) => ({
      path: this.paths[note]!,
      chunkId: this.chunkIds[bestRow[note]!]!,
      similarity: best[note]!,
    }));
  }
}
