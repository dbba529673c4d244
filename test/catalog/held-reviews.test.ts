import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Catalog, LocalCorpus } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import type { Review } from '../../src/domain/index.js';
import { engine as nlp } from '../../src/insights/index.js';
import { storedReviews } from '../helpers/index.js';

// The catalog keeps its reviews as their bytes in /reviews.json (a Proxy each): they must read, spread
// and serialise exactly as the Review objects they were rendered from.
const business = demoBusiness();
const rows = storedReviews(300, 11);
const engine = new LocalCorpus(nlp);
const common = { business, analyses: new Map<string, string>(), publicBaseUrl: 'http://127.0.0.1' };
const first = await Catalog.fromReviews(
  { ...common, revision: { id: 1, created_at: '2026-11-01T00:00:00.000Z' }, rows: new Map(rows.slice(0, 299).map((r) => [r.id, r])) },
  engine,
);

/** Each review as the body has it, parsed. */
const parsedItems = (c: Catalog) => (JSON.parse(Buffer.concat(c.reviewsJson.parts).toString()) as { reviews: Review[] }).reviews;

function assertReadsAsBody(c: Catalog) {
  const items = parsedItems(c);
  assert.equal(c.reviews.length, items.length);
  c.reviews.forEach((r, i) => {
    assert.equal(JSON.stringify(r), JSON.stringify(items[i]));
    assert.deepEqual({ ...r }, items[i]);
    assert.deepEqual(Object.keys(r), Object.keys(items[i]));
    for (const key of Object.keys(items[i]) as (keyof Review)[]) assert.deepEqual(r[key], items[i][key], `${key} of review ${i}`);
  });
}

test('held reviews read, spread and serialise as the reviews in /reviews.json', () => {
  assertReadsAsBody(first);
  // Two reviews read in turn (as a comparison does) each keep their own values.
  const [a, b] = [first.reviews[0], first.reviews[1]];
  const items = parsedItems(first);
  for (let k = 0; k < 20; k++) {
    assert.equal(a.text, items[0].text);
    assert.equal(b.text, items[1].text);
  }
  assert.equal(first.review(a.id), a);
});

test('held reviews are read-only', () => {
  const r = first.reviews[0] as { rating: number };
  assert.throws(() => {
    r.rating = 1;
  }, TypeError);
});

test('an update keeps each carried review as the same object, reading the same in both revisions', async () => {
  const before = first.reviews.map((r) => JSON.stringify(r));
  const added = rows[299];
  const next = await Catalog.update(
    first,
    { ...common, revision: { id: 2, created_at: '2026-11-02T00:00:00.000Z' }, changes: new Map([[added.id, added]]) },
    engine,
  );
  assert.equal(next.reviews.length, first.reviews.length + 1);
  assertReadsAsBody(next);
  const carried = next.reviews.filter((r) => r.id !== added.id);
  assert.equal(carried.length, first.reviews.length);
  carried.forEach((r, i) => assert.equal(r, first.reviews[i]));
  // The previous revision (still served until the swap) reads as it did.
  assert.deepEqual(
    first.reviews.map((r) => JSON.stringify(r)),
    before,
  );
});
