// A render of every item is written straight into memory that grows in place (no item's bytes held
// apart until copied): the body must still be JSON.stringify of the document, byte for byte, past the
// memory's growth steps, in shared and in private memory, and `written` must see each item's span.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { carriedRuns, SplicedJson } from '../../src/catalog/index.js';
import { runAtOnce, sharedBuffer } from '../../src/threads/index.js';

// About 38 MB of items with multi-byte characters: the body grows several times.
const items = Array.from({ length: 30_000 }, (_, i) => ({ id: `r${i}`, text: `${'é€😀'.repeat(i % 7)}${'x'.repeat(1200 + (i % 97))}` }));
const doc = { head: 'ä', items, tail: [1, 2] };

for (const [name, allocate] of [
  ['shared', sharedBuffer],
  ['private', undefined],
] as const) {
  test(`a render of every item into ${name} memory that grows is JSON.stringify of the document`, () => {
    const values = [...items];
    const seen: [number, number][] = [];
    const json = runAtOnce(
      SplicedJson.renderAllSteps(doc, 'items', 'array', { keys: items.map((v) => v.id), values }, allocate, (i, start, length) => {
        seen.push([start, length]);
        // What the caller puts in its place from now on (the render keeps the array).
        values[i] = { stands: i } as never;
      }),
    );
    const expected = Buffer.from(JSON.stringify(doc));
    assert.ok(expected.length > 2 * (16 << 20), 'the body passes the growth step more than once');
    assert.equal(json.parts.length, 1, 'a render of every item is one buffer');
    assert.ok(json.parts[0].equals(expected));
    assert.equal(json.parts[0].buffer instanceof SharedArrayBuffer, name === 'shared');
    assert.equal(seen.length, items.length);
    const places: number[] = [];
    runAtOnce(json.eachItemPlace((i, _, at) => places.push(i, at)));
    assert.deepEqual(
      places,
      seen.flatMap(([start], i) => [i, start]),
    );
    for (const [i, [, length]] of seen.entries()) assert.equal(json.itemLength(i), length);
    assert.equal(json.itemText(123), JSON.stringify(items[123]));
    // The same digest as the path that stringifies each item apart (every item fresh on an empty previous render).
    const empty = SplicedJson.render({ ...doc, items: [] }, 'items', 'array', { keys: [], values: [] });
    const apart = SplicedJson.render(
      doc,
      'items',
      'array',
      { keys: items.map((v) => v.id), values: items },
      empty,
      runAtOnce(carriedRuns(new Int32Array(items.length).fill(-1))),
    );
    assert.ok(Buffer.concat(apart.parts).equals(expected));
    assert.equal(json.digest.toString('hex'), apart.digest.toString('hex'));
  });
}
