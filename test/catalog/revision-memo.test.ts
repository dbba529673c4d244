import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoBudget, RevisionCache } from '../../src/catalog/index.js';

const OVERHEAD = 160;
const sized = (budget: MemoBudget, name: string) => new RevisionCache<{ bytes: number }>(budget, name, (v) => v.bytes);

test('memos share one byte budget; the least recently used entry goes first, whichever memo holds it', () => {
  const budget = new MemoBudget(48_000); // entries up to 3,000 bytes are kept
  const a = sized(budget, 'a');
  const b = sized(budget, 'b');
  const each = 2_800 + OVERHEAD + 2 * 2; // two-character keys
  for (let i = 10; i < 26; i++) a.get(1, `${i}`, () => ({ bytes: 2_800 }));
  assert.equal(budget.bytes, 16 * each);
  a.peek(1, '10'); // the oldest is now the most recent; 11 is the least
  b.get(1, 'yy', () => ({ bytes: 2_800 }));
  assert.ok(budget.bytes <= budget.maxBytes);
  assert.equal(a.peek(1, '11'), undefined, 'the least recently used went');
  assert.ok(a.peek(1, '10') && a.peek(1, '12') && b.peek(1, 'yy'));
  assert.equal(budget.evictions, 1);
  assert.deepEqual([...budget.bytesByName()].sort(), [
    ['a', 15 * each],
    ['b', each],
  ]);
});

test('keys count too: long keys of small values cannot pin more than the budget', () => {
  const budget = new MemoBudget(1 << 20);
  const keys = new RevisionCache<string>(budget, 'raw', (v) => 2 * v.length);
  for (let i = 0; i < 5_000; i++) keys.get(1, `${i}`.padEnd(2_000, 'k'), () => 'v');
  assert.ok(budget.bytes <= budget.maxBytes);
  assert.ok(budget.entries < 5_000);
});

test('growth reported after storing (a compressed variant) counts and can evict; an evicted entry no longer counts', () => {
  const budget = new MemoBudget(160_000);
  let grow: (n: number) => void = () => undefined;
  const c = new RevisionCache<string>(budget, 'g', (_v, grew) => ((grow = grew), 100));
  c.get(1, 'k', () => 'v');
  const before = budget.bytes;
  grow(400);
  assert.equal(budget.bytes, before + 400);
  grow(200_000);
  assert.equal(budget.bytes, 0, 'over the budget: evicted');
  grow(50);
  assert.equal(budget.bytes, 0);
});

test('a newer revision empties every memo; an older one (a request from before the swap) is answered but not memoized', () => {
  const budget = new MemoBudget(10_000);
  const a = sized(budget, 'a');
  const b = sized(budget, 'b');
  a.get(1, 'x', () => ({ bytes: 10 }));
  b.get(1, 'y', () => ({ bytes: 10 }));
  a.get(2, 'x2', () => ({ bytes: 10 }));
  assert.equal(b.peek(2, 'y'), undefined, 'the other memo was emptied too');
  assert.equal(budget.entries, 1);
  let made = 0;
  assert.deepEqual(
    a.get(1, 'old', () => (made++, { bytes: 10 })),
    { bytes: 10 },
  );
  assert.equal(a.peek(1, 'old'), undefined);
  assert.ok(a.peek(2, 'x2'), 'the current revision is untouched');
  assert.equal(made, 1);
});

test('a value over a sixteenth of the budget is returned but not kept', () => {
  const budget = new MemoBudget(16_000);
  const a = sized(budget, 'a');
  assert.deepEqual(
    a.get(1, 'big', () => ({ bytes: 1_000 })),
    { bytes: 1_000 },
  );
  assert.equal(a.peek(1, 'big'), undefined);
  assert.equal(budget.uncached, 1);
  assert.equal(budget.bytes, 0);
});

test('a memo kept from the second request: a key asked once is made and not kept; asked again, it is kept and then hit', () => {
  const budget = new MemoBudget(1 << 20);
  const searches = new RevisionCache<{ bytes: number }>(budget, 's', (v) => v.bytes, { fromSecondRequest: true });
  let made = 0;
  const make = () => (made++, { bytes: 100 });
  for (let i = 0; i < 1_000; i++) searches.get(1, `once-${i}`, make);
  assert.equal(budget.entries, 0, 'distinct keys take nothing from the budget');
  searches.get(1, 'twice', make);
  searches.get(1, 'twice', make);
  assert.equal(budget.entries, 1);
  const kept = searches.peek(1, 'twice');
  assert.ok(kept);
  assert.equal(searches.get(1, 'twice', make), kept, 'the third request is a hit');
  assert.equal(made, 1_002);
});
