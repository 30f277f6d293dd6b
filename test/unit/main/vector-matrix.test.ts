import { describe, expect, it } from 'vitest';
import { VectorMatrix, type NoteMatch } from '../../../src/main/embeddings/vector-matrix';
import { normalized, toBlob } from '../../../src/main/embeddings/vectors';
// mulberry32, seeded: every case is the same on every run.
import { random } from '../../support/synthetic-vault';

interface Passage {
  id: number;
  path: string;
  vector: Float32Array;
}

/**
 * The scan the matrix replaces, as it was: every float32 vector against the query, four sums at once,
 * each note's best kept as a float32, notes in the order their first passage came.
 */
function exactScan(
  passages: readonly Passage[],
  query: Float32Array,
  limit: number,
  admit?: (path: string) => boolean,
): NoteMatch[] {
  const paths = [...new Set(passages.map((passage) => passage.path))];
  const noteOf = new Map(paths.map((path, index) => [path, index]));
  const best = new Float32Array(paths.length).fill(Number.NEGATIVE_INFINITY);
  const bestRow = new Int32Array(paths.length).fill(-1);
  const dimensions = query.length;
  const whole = dimensions - (dimensions % 4);
  passages.forEach(({ path, vector }, row) => {
    const note = noteOf.get(path)!;
    if (admit && !admit(path)) return;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < whole; i += 4) {
      s0 += vector[i]! * query[i]!;
      s1 += vector[i + 1]! * query[i + 1]!;
      s2 += vector[i + 2]! * query[i + 2]!;
      s3 += vector[i + 3]! * query[i + 3]!;
    }
    for (let i = whole; i < dimensions; i++) s0 += vector[i]! * query[i]!;
    const similarity = s0 + s1 + s2 + s3;
    if (similarity > best[note]!) {
      best[note] = similarity;
      bestRow[note] = row;
    }
  });
  const notes: number[] = [];
  for (let note = 0; note < paths.length; note++) if (bestRow[note]! >= 0) notes.push(note);
  notes.sort((a, b) => best[b]! - best[a]! || a - b);
  return notes.slice(0, limit).map((note) => ({
    path: paths[note]!,
    chunkId: passages[bestRow[note]!]!.id,
    similarity: best[note]!,
  }));
}

function matrixOf(passages: readonly Passage[], dimensions: number): VectorMatrix {
  const blobs = new Map(passages.map((passage) => [passage.id, toBlob(passage.vector)]));
  return new VectorMatrix(
    passages.length,
    passages.map(({ id, path }): [number, string, Uint8Array] => [id, path, blobs.get(id)!]),
    dimensions,
    {
      vectorsByIds: (ids) => new Map(ids.flatMap((id) => (blobs.has(id) ? [[id, blobs.get(id)!]] : []))),
      noteVectors: (path) => passages.filter((p) => p.path === path).map((p) => blobs.get(p.id)!),
    },
  );
}

/** Notes of 1–6 passages: random directions, or a few themes with small variations (close scores). */
function vault(seed: number, notes: number, dimensions: number, themes: number): Passage[] {
  const next = random(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: themes }, () => Array.from({ length: dimensions }, gaussian));
  const passages: Passage[] = [];
  let id = 100;
  for (let note = 0; note < notes; note++) {
    const count = 1 + Math.floor(next() * 6);
    for (let passage = 0; passage < count; passage++) {
      const centre = themes > 0 ? centres[Math.floor(next() * themes)]! : null;
      const raw = Array.from({ length: dimensions }, (_, i) =>
        centre ? centre[i]! + 0.3 * gaussian() : gaussian(),
      );
      passages.push({ id: id++, path: `folder${note % 3}/note ${note}.md`, vector: normalized(raw) });
    }
  }
  return passages;
}

describe('vector matrix', () => {
  it('finds the same notes, passages and similarities as the exact float32 scan', () => {
    const cases = [
      { seed: 1, notes: 400, dimensions: 768, themes: 0 },
      { seed: 2, notes: 300, dimensions: 768, themes: 5 },
      { seed: 3, notes: 500, dimensions: 100, themes: 3 },
      { seed: 4, notes: 60, dimensions: 33, themes: 0 },
      { seed: 5, notes: 200, dimensions: 384, themes: 1 },
    ];
    for (const { seed, notes, dimensions, themes } of cases) {
      const passages = vault(seed, notes, dimensions, themes);
      const matrix = matrixOf(passages, dimensions);
      const next = random(seed + 1000);
      for (let probe = 0; probe < 12; probe++) {
        // Random directions, and stored passages themselves (a note asked for its own neighbours).
        const query =
          probe % 3 === 0
            ? passages[Math.floor(next() * passages.length)]!.vector
            : normalized(Array.from({ length: dimensions }, () => next() - 0.5));
        for (const limit of [1, 8, 20, notes + 5]) {
          expect(matrix.nearestNotes(query, limit)).toEqual(exactScan(passages, query, limit));
        }
        const folder = (path: string) => path.startsWith('folder1/');
        expect(matrix.nearestNotes(query, 10, folder)).toEqual(exactScan(passages, query, 10, folder));
      }
    }
  });

  it('keeps the order of the exact scan between notes with the same best passage', () => {
    const next = random(9);
    const shared = normalized(Array.from({ length: 64 }, () => next() - 0.5));
    const passages: Passage[] = [];
    for (let note = 0; note < 30; note++) {
      const own = normalized(Array.from({ length: 64 }, () => next() - 0.5));
      passages.push({ id: note * 2 + 1, path: `n${note}.md`, vector: note % 2 === 0 ? shared : own });
      passages.push({ id: note * 2 + 2, path: `n${note}.md`, vector: own });
    }
    const matrix = matrixOf(passages, 64);
    expect(matrix.nearestNotes(shared, 20)).toEqual(exactScan(passages, shared, 20));
  });

  it('answers nothing for a note admitted by no filter, and every note when fewer than the limit', () => {
    const passages = vault(11, 12, 48, 0);
    const matrix = matrixOf(passages, 48);
    const query = passages[0]!.vector;
    expect(matrix.nearestNotes(query, 5, () => false)).toEqual([]);
    expect(
      matrix
        .nearestNotes(query, 50)
        .map((match) => match.path)
        .sort(),
    ).toEqual([...new Set(passages.map((passage) => passage.path))].sort());
  });

  it("reckons the baseline from the average passage, leaving a note's own passages out", () => {
    const passages = vault(12, 40, 32, 2);
    const matrix = matrixOf(passages, 32);
    const query = passages[3]!.vector;
    const dot = (vector: Float32Array) => vector.reduce((sum, value, i) => sum + value * query[i]!, 0);
    const all = passages.reduce((sum, passage) => sum + dot(passage.vector), 0);
    expect(matrix.baseline(query)).toBeCloseTo(all / passages.length, 9);
    const path = passages[3]!.path;
    const own = passages.filter((passage) => passage.path === path);
    const others = all - own.reduce((sum, passage) => sum + dot(passage.vector), 0);
    expect(matrix.baseline(query, path)).toBeCloseTo(others / (passages.length - own.length), 9);
    expect(matrix.vectorsOf(path)).toEqual(own.map((passage) => passage.vector));
  });
});
