import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NeedleMemo } from '../../src/catalog/index.js';

test('the needle memo keeps a needle from its second search, least recently used out, its arrays reused cleared', () => {
  const words = 4;
  const memo = new NeedleMemo(words, 2 * 8 * words); // two needles
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
  // A scratch answer is cleared over the range asked for.
  const s = memo.findings('d', 1, 2);
  assert.deepEqual([...s.checked.subarray(1, 3), ...s.matched.subarray(1, 3)], [0, 0, 0, 0]);
});
