// The vendored word vectors (src/insights/model/word-vectors.bin): the int8 layout round-trips within its
// quantisation step, and the shipped subset keeps the neighbourhoods the models rely on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeVectors, encodeVectors, wordVectors } from '../../src/insights/index.js';

const cosine = (a: string, b: string): number => {
  const v = wordVectors();
  const i = v.index.get(a);
  const j = v.index.get(b);
  assert.ok(i !== undefined && j !== undefined, `${a} and ${b} have vectors`);
  let dot = 0;
  for (let d = 0; d < v.dims; d++) dot += v.data[i * v.dims + d] * v.scales[i] * v.data[j * v.dims + d] * v.scales[j];
  return dot;
};

describe('word vectors', () => {
  it('encode and decode: unit length, each value within half a quantisation step', () => {
    const words = ['alpha', 'beta', 'gamma'];
    const vectors = [Float64Array.from([3, 4, 0]), Float64Array.from([-1, 0, 0.5]), Float64Array.from([0.2, -0.2, 0.9])];
    const v = decodeVectors(encodeVectors(words, 3, vectors));
    assert.equal(v.dims, 3);
    assert.deepEqual([...v.index.keys()], words);
    vectors.forEach((x, i) => {
      const norm = Math.hypot(...x);
      for (let d = 0; d < 3; d++) {
        const got = v.data[i * 3 + d] * v.scales[i];
        assert.ok(Math.abs(got - x[d] / norm) <= v.scales[i] / 2 + 1e-7, `${words[i]}[${d}]: ${got}`);
      }
    });
  });

  it('the shipped subset: tens of thousands of words, unit vectors, similar words closer than unrelated ones', () => {
    const v = wordVectors();
    assert.ok(v.index.size >= 30_000 && v.index.size <= 50_000, `${v.index.size} words`);
    assert.equal(v.dims, 100);
    assert.ok(Math.abs(cosine('clean', 'clean') - 1) < 0.02);
    for (const [a, b, c] of [
      ['courteous', 'polite', 'plumbing'],
      ['spotless', 'pristine', 'invoice'],
      ['overcharged', 'cheated', 'garden'],
    ]) {
      assert.ok(cosine(a, b) > cosine(a, c) + 0.2, `${a}: ${b} ${cosine(a, b)} vs ${c} ${cosine(a, c)}`);
    }
  });
});
