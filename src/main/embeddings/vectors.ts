/**
 * Vectors are stored normalised to unit length, as little-endian float32 blobs, so that cosine
 * similarity is a dot product.
 */

/** The vector scaled to unit length (a zero vector stays zero). */
export function normalized(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  const unit = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i]! * scale;
  return unit;
}

export function toBlob(unit: Float32Array): Buffer {
  return Buffer.from(unit.buffer, unit.byteOffset, unit.byteLength);
}

/** The vector in a blob; a view when the blob is aligned for float32, else a copy. */
export function fromBlob(blob: Uint8Array): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(blob.slice().buffer);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** The mean direction of some unit vectors, itself of unit length. */
export function centroid(vectors: readonly Float32Array[]): Float32Array {
  const sum = new Float32Array(vectors[0]?.length ?? 0);
  for (const vector of vectors) for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + (vector[i] ?? 0);
  return normalized(sum);
}
