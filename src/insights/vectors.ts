// Word vectors: unit-length GloVe vectors of 35,021 English words (model/word-vectors.bin, written once
// by tools/absa/vendor-vectors.ts). The trained models read the mean vector of a sentence's words, so what they
// learnt from "clean" carries over to "spotless". Loaded once, on first use.
//
// File layout (little-endian): "RCV1", uint32 words, uint32 dimensions, uint32 byte length of the words
// (UTF-8, one per line), zero padding to a multiple of 4, one float32 scale per word, then per word
// `dimensions` int8 values; a vector is its int8 values times its scale.
import { readFileSync } from 'node:fs';

const MAGIC = 'RCV1';

export interface WordVectors {
  dims: number;
  index: Map<string, number>;
  scales: Float32Array;
  data: Int8Array;
}

/** Unit-length vectors quantised to int8 with one scale each, in the layout above. */
export function encodeVectors(words: string[], dims: number, vectors: Float64Array[]): Buffer {
  const text = Buffer.from(words.join('\n'), 'utf8');
  const head = 16 + Math.ceil(text.length / 4) * 4;
  const out = Buffer.alloc(head + words.length * 4 + words.length * dims);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(words.length, 4);
  out.writeUInt32LE(dims, 8);
  out.writeUInt32LE(text.length, 12);
  text.copy(out, 16);
  vectors.forEach((v, i) => {
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    let max = 0;
    for (const x of v) max = Math.max(max, Math.abs(x / norm));
    const scale = max / 127 || 1;
    out.writeFloatLE(scale, head + i * 4);
    const at = head + words.length * 4 + i * dims;
    for (let d = 0; d < dims; d++) out.writeInt8(Math.round(v[d] / norm / scale), at + d);
  });
  return out;
}

export function decodeVectors(bytes: Buffer): WordVectors {
  if (bytes.toString('latin1', 0, 4) !== MAGIC) throw new Error('word vectors: not an RCV1 file');
  const n = bytes.readUInt32LE(4);
  const dims = bytes.readUInt32LE(8);
  const textLength = bytes.readUInt32LE(12);
  const words = bytes.toString('utf8', 16, 16 + textLength).split('\n');
  const head = 16 + Math.ceil(textLength / 4) * 4;
  const scales = new Float32Array(n);
  for (let i = 0; i < n; i++) scales[i] = bytes.readFloatLE(head + i * 4);
  const data = new Int8Array(n * dims);
  data.set(new Int8Array(bytes.buffer, bytes.byteOffset + head + n * 4, n * dims));
  return { dims, index: new Map(words.map((w, i) => [w, i])), scales, data };
}

let cached: WordVectors | null = null;

export function wordVectors(): WordVectors {
  cached ??= decodeVectors(readFileSync(new URL('./model/word-vectors.bin', import.meta.url)));
  return cached;
}

/**
 * Adds `sign` times the vector of the first of `forms` that has one to `sum`; false when none has.
 */
export function addVector(v: WordVectors, forms: readonly string[], sign: number, sum: Float64Array): boolean {
  for (const w of forms) {
    const i = v.index.get(w);
    if (i === undefined) continue;
    const s = v.scales[i] * sign;
    const at = i * v.dims;
    for (let d = 0; d < v.dims; d++) sum[d] += v.data[at + d] * s;
    return true;
  }
  return false;
}
