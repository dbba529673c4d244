import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NeedleMemo } from '../../src/catalog/index.js';

/** What a kept single-character needle costs over `words` words (NeedleMemo's count: bitsets, bookkeeping, key). */
const cost = (words: number, needle = 'x') => 8 * words + 400 + 2 * needle.length;

test('the needle memo keeps a needle from its second search, least recently used out, its arrays reused cleared', () => {
  const words = 4;
  const memo = new NeedleMemo(words, 2 * cost(words)); // two needles
  const fill = (needle: string) => {
    const f = memo.findings(needle, 0, words - 1);
    f.checked.fill(7);
    f.matched.fill(3);
    return f;
  };
  const scratch = fill('a');
  assert.equal(memo.size, 0, 'seen once: scratch findings, not kept');
  const b = (fill('b'), fill('b'));
  const a = fill('a');
  assert.notEqual(a, scratch);
  assert.equal(memo.size, 2);
  assert.equal(memo.findings('b', 0, words - 1), b, 'kept findings are returned as they are');
  assert.deepEqual([...b.checked], [7, 7, 7, 7]);
  // A third needle, seen twice: the least recently used ('a') goes, and its arrays serve the newcomer, cleared.
  memo.findings('c', 0, words - 1);
  const c = memo.findings('c', 0, words - 1);
  assert.equal(memo.size, 2);
  assert.equal(c.checked, a.checked);
  assert.deepEqual([...c.checked, ...c.matched], new Array(2 * words).fill(0));
});

test('scratch findings are cleared over the range asked for, and only there', () => {
  const words = 4;
  const memo = new NeedleMemo(words, 0); // keeps nothing
  const dirty = memo.findings('d', 0, words - 1);
  dirty.checked.fill(5);
  dirty.matched.fill(9);
  const s = memo.findings('e', 1, 2);
  assert.deepEqual([...s.checked], [5, 0, 0, 5]);
  assert.deepEqual([...s.matched], [9, 0, 0, 9]);
  assert.equal(memo.size, 0);
});

test("the needle memo's budget counts each needle's bookkeeping and key, so small corpora and long needles keep few", () => {
  const words = 1;
  const budget = 64 << 10;
  const memo = new NeedleMemo(words, budget);
  const needle = (i: number) => `${i}`.padStart(200, 'n');
  for (let i = 0; i < 10_000; i++) for (let twice = 0; twice < 2; twice++) memo.findings(needle(i), 0, 0);
  assert.equal(memo.size, Math.floor(budget / cost(words, needle(0))));
});
