// An update's render views the previous body's carried runs where they lie instead of copying them:
// the body is then several buffers. Across chains of updates it must still be JSON.stringify of the
// document, byte for byte, with the digest of a render from scratch; stay in few parts; and not keep
// much more memory alive than its own bytes (views keep whole buffers).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import fc from 'fast-check';
import { SplicedJson } from '../../src/catalog/index.js';
import { type Allocate, runAtOnce, sharedBuffer } from '../../src/threads/index.js';
import { carriedByKey, carriedFrom } from '../helpers/index.js';

type Item = { id: string; text: string };
const doc = (items: readonly Item[], rev: number) => ({ head: `rev ${rev}`, items, tail: rev });
const keysOf = (items: readonly Item[]) => items.map((v) => v.id);
const bytesOf = (json: SplicedJson) => Buffer.concat(json.parts);
const renderItems = (items: Item[], rev: number, previous?: SplicedJson, fresh?: ReadonlySet<unknown>, allocate?: Allocate) =>
  SplicedJson.render(
    doc(items, rev),
    'items',
    'array',
    { keys: keysOf(items), values: items },
    previous,
    previous && fresh && carriedByKey(keysOf(items), items, previous, fresh),
    allocate,
  );

/** Bytes of the parts' memory that `previous` did not hold: what the update made anew. */
function newBytes(next: SplicedJson, previous: SplicedJson): number {
  const old = new Set(previous.parts.map((p) => p.buffer));
  return next.parts.filter((p) => !old.has(p.buffer)).reduce((n, p) => n + p.buffer.byteLength, 0);
}

function heldBytes(json: SplicedJson): number {
  return [...new Set(json.parts.map((p) => p.buffer))].reduce((n, b) => n + b.byteLength, 0);
}

const make = (n: number, size: number, tag: string): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}`, text: `${'é'.repeat(i % 5)}${'x'.repeat(size + (i % 13))}` }));

test('one new item among many: the update views the previous body, copying only the new bytes and the small runs', () => {
  const items = make(20_000, 1000, 'r');
  const first = renderItems(items, 1, undefined, undefined, sharedBuffer);
  assert.equal(first.parts.length, 1);
  const added = { id: 'new', text: 'fresh' };
  const next = [added, ...items];
  const second = renderItems(next, 2, first, new Set([added]), sharedBuffer);
  assert.ok(bytesOf(second).equals(Buffer.from(JSON.stringify(doc(next, 2)))));
  assert.ok(second.parts.length > 1, 'the carried items are a view, not a copy');
  assert.ok(newBytes(second, first) < 1024, `${newBytes(second, first)} new bytes for one small item`);
  for (const p of second.parts) assert.ok(p.buffer instanceof SharedArrayBuffer, 'every part is in the memory asked for');
  // Each item is read back from its one place.
  assert.equal(second.itemText(0), JSON.stringify(added));
  assert.equal(second.itemText(20_000), JSON.stringify(items.at(-1)));
  const read: string[] = [];
  runAtOnce(second.eachItemPlace((_, buffer, at, length) => read.push(buffer.toString('utf8', at, at + length))));
  assert.deepEqual(
    read,
    [added, ...items].map((v) => JSON.stringify(v)),
  );
});

test('a body posted to another thread is updated there by views too (its grown memory does not count as dead)', () => {
  // About 5 MB written into shared memory that grows in 16 MiB steps.
  const items = make(5_000, 1000, 'r');
  const first = renderItems(items, 1, undefined, undefined, sharedBuffer);
  assert.ok(first.parts[0].buffer.byteLength > 2 * first.parts[0].length, 'the memory grew past the body');
  // As a thread receives it: the same memory, another object.
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(first.parts);
  const posted = (receiveMessageOnPort(port2)!.message as Uint8Array[]).map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));
  port1.close();
  assert.notEqual(posted[0].buffer, first.parts[0].buffer);
  const there = SplicedJson.fromLayout(posted, first.layout(), keysOf(items), items);
  const added = { id: 'new', text: 'fresh' };
  const next = [added, ...items];
  const second = renderItems(next, 2, there, new Set([added]), sharedBuffer);
  assert.ok(bytesOf(second).equals(Buffer.from(JSON.stringify(doc(next, 2)))));
  assert.ok(second.parts.length > 1, 'viewed, not joined into a copy');
  assert.ok(newBytes(second, there) < 1024);
});

test('chains of updates stay JSON.stringify, in few parts, keeping little dead memory', () => {
  // About 8 MB, rendered item by item into memory of its exact size (so byteLength is what is held).
  let items = make(3_000, 2_700, 'a');
  let json = renderItems(items, 0, renderItems([], 0), new Set(items));
  let maxParts = 0;
  let joins = 0;
  for (let rev = 1; rev <= 300; rev++) {
    // Mostly one to three new items at the front; now and then a large one, a removal of the middle half, or a change.
    const fresh = rev % 50 === 0 ? make(1, 70_000, `big${rev}-`) : make(1 + (rev % 3), 200, `n${rev}-`);
    let next = [...fresh, ...items];
    // The middle half at once: the runs kept are large, so they are views, and the old buffer is half dead.
    if (rev % 97 === 0) next = [...next.slice(0, next.length >> 2), ...next.slice((3 * next.length) >> 2)];
    const changed = rev % 7 === 0 ? { ...next[next.length >> 1], text: `changed ${rev}` } : null;
    if (changed) next[next.length >> 1] = changed;
    const freshSet = new Set<unknown>([...fresh, ...(changed ? [changed] : [])]);
    const previous = json;
    json = renderItems(next, rev, previous, freshSet);
    items = next;
    maxParts = Math.max(maxParts, json.parts.length);
    if (json.parts.length === 1) joins++;
    const length = json.parts.reduce((n, p) => n + p.length, 0);
    if (rev % 20 === 0 || rev % 97 === 0) {
      assert.ok(bytesOf(json).equals(Buffer.from(JSON.stringify(doc(items, rev)))), `revision ${rev}`);
      const scratch = renderItems(items, rev);
      assert.equal(json.digest.toString('hex'), scratch.digest.toString('hex'), `digest at revision ${rev}`);
    }
    // A quarter of the body and a MiB (small parts from Buffer's pool) at most.
    assert.ok(heldBytes(json) <= length * 1.25 + (1 << 20), `revision ${rev}: ${heldBytes(json)} held for ${length}`);
  }
  assert.ok(maxParts > 2, 'updates were made of views');
  assert.ok(maxParts <= 64, `${maxParts} parts`);
  assert.ok(joins >= 1 && joins <= 10, `${joins} joins in 300 revisions`);
});

test('a removal of most items joins the body into one buffer instead of keeping the old one alive', () => {
  const items = make(4_000, 5000, 'r');
  const first = renderItems(items, 1);
  const kept = items.slice(0, 1000);
  const second = renderItems(kept, 2, first, new Set());
  assert.equal(second.parts.length, 1);
  assert.equal(newBytes(second, first), heldBytes(second));
  assert.ok(second.parts[0].equals(Buffer.from(JSON.stringify(doc(kept, 2)))));
});

test('a layout stored from a body in parts reads back from those parts', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ id: fc.uuid(), text: fc.string({ maxLength: 90_000, unit: 'grapheme' }) }), { minLength: 1, maxLength: 12 }),
      fc.array(fc.string({ maxLength: 200 }), { maxLength: 6 }),
      fc.array(fc.boolean(), { maxLength: 12 }),
      fc.constantFrom('array' as const, 'object' as const),
      (first, added, keep, kind) => {
        const asDoc = (items: Item[]) => ({ list: kind === 'array' ? items : Object.fromEntries(items.map((v) => [v.id, v])) });
        const one = SplicedJson.render(asDoc(first), 'list', kind, { keys: keysOf(first), values: first });
        const fresh = added.map((text, i) => ({ id: `fresh-${i}`, text }));
        const kept = first.filter((_, i) => keep[i] !== false);
        const merged = kept.flatMap((v, i) => (fresh[i] ? [fresh[i], v] : [v])).concat(fresh.slice(kept.length));
        const two = SplicedJson.render(
          asDoc(merged),
          'list',
          kind,
          { keys: keysOf(merged), values: merged },
          one,
          carriedFrom(merged, first, new Set(fresh)),
        );
        const expected = JSON.stringify(asDoc(merged));
        assert.equal(bytesOf(two).toString(), expected);
        const back = SplicedJson.fromLayout(two.parts, two.layout(), keysOf(merged), merged);
        assert.equal(back.digest.toString('hex'), two.digest.toString('hex'));
        merged.forEach((v, i) => {
          assert.equal(back.itemText(i), kind === 'array' ? JSON.stringify(v) : `${JSON.stringify(v.id)}:${JSON.stringify(v)}`);
          if (kind === 'object') assert.ok(back.isKeyedAs(i, v.id));
        });
        const read = [...SplicedJson.readStored(two.parts, two.layout())];
        assert.equal(read.length, merged.length);
      },
    ),
    { numRuns: 200, seed: 11 },
  );
});

test('a layout whose item straddles two parts is refused', () => {
  const items = make(4, 10, 'r');
  const json = renderItems(items, 1);
  const body = json.parts[0];
  const cut = json.parts[0].indexOf(JSON.stringify(items[2])) + 3;
  assert.throws(
    () => SplicedJson.fromLayout([body.subarray(0, cut), body.subarray(cut)], json.layout(), keysOf(items), items),
    /item 2 straddles two parts/,
  );
});

test('carried runs that disagree with the items are refused', () => {
  const items = make(4, 10, 'g');
  const first = renderItems(items, 1);
  const render = (from: number[], runs: number[]) =>
    SplicedJson.render(doc(items, 2), 'items', 'array', { keys: keysOf(items), values: items }, first, {
      from: Int32Array.from(from),
      runs,
    });
  assert.throws(() => render([0, 1, 2, 3], [0, 0, 2]), /outside the carried runs/);
  assert.throws(() => render([1, 2, 3, 0], [0, 1, 3, 3, 0, 1]), /not where the previous render had it/);
  assert.equal(bytesOf(render([0, 1, 2, 3], [0, 0, 4])).toString(), JSON.stringify(doc(items, 2)));
});
