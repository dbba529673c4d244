import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Catalog, LocalCorpus, ReviewIndex } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { foldText, type Review, type SearchQuery, SearchQuerySchema } from '../../src/domain/index.js';
import { catalogRows } from '../helpers/index.js';

// A catalog built straight from demo records (no database): the search is pure logic.
const business = demoBusiness();
const rows = catalogRows(600, 7);
const catalog = await Catalog.fromReviews(
  {
    revision: { id: 1, created_at: '2026-11-01T00:00:00.000Z' },
    business,
    rows: new Map(rows.map((r) => [r.id, r])),
    analyses: new Map(),
    publicBaseUrl: 'http://127.0.0.1',
  },
  new LocalCorpus(),
);

const viaTrigrams = ReviewIndex.create(catalog.reviews, catalog.attribution.technicians, catalog.attribution.services, 0);

/** The specification of search, written the slow obvious way. */
function reference(q: SearchQuery): Review[] {
  const tech = q.mentions_technician ? catalog.attribution.technicians.resolve(q.mentions_technician) : undefined;
  const svc = q.mentions_service ? catalog.attribution.services.resolve(q.mentions_service) : undefined;
  return catalog.reviews.filter(
    (r) =>
      (q.rating === undefined || r.rating === q.rating) &&
      (q.min_rating === undefined || r.rating >= q.min_rating) &&
      (q.since === undefined || r.date >= q.since) &&
      (q.until === undefined || r.date <= q.until) &&
      (q.query === undefined || foldText(r.text ?? '').includes(foldText(q.query))) &&
      (q.mentions_technician === undefined || (tech != null && r.technicians.includes(tech))) &&
      (q.mentions_service === undefined || (svc != null && r.services.includes(svc))),
  );
}

const day = fc
  .date({ min: new Date('2021-01-01'), max: new Date('2026-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const words = ['leak', 'on time', 'Mike', 'price', 'drain', 'clean', 'late', 'ÉTÉ', 'xyzzy', 'a', 'the tech', 'fixed the leak fast'];
const query = fc.record(
  {
    rating: fc.integer({ min: 1, max: 5 }),
    min_rating: fc.constantFrom(1, 2.5, 4, 5),
    since: day,
    until: day,
    query: fc.constantFrom(...words),
    mentions_technician: fc.constantFrom('mike-delgado', 'Sarah', 'TOM BECKER', 'nobody'),
    mentions_service: fc.constantFrom('drain-cleaning', 'Water heater', 'faucet'),
    limit: fc.integer({ min: 1, max: 100 }),
  },
  { requiredKeys: [] },
);

test('indexed search equals the obvious filter for any combination of filters', () => {
  fc.assert(
    fc.property(query, (raw) => {
      const parsed = SearchQuerySchema.safeParse(raw);
      fc.pre(parsed.success);
      const q = parsed.data!;
      const expected = reference(q);
      // The catalog's index checks texts directly at this size; the second always narrows by trigrams first.
      for (const got of [catalog.search(q), viaTrigrams.search(q)]) {
        assert.equal(got.matched, expected.length);
        assert.deepEqual(
          got.reviews.map((r) => r.id),
          expected.slice(0, q.limit).map((r) => r.id),
        );
        assert.equal(got.returned, got.reviews.length);
      }
    }),
    { numRuns: 400 },
  );
});

test('since returns the newest-first prefix of reviews on or after the day', () => {
  for (const d of ['2020-01-01', '2024-02-29', '2026-10-31', '2030-01-01']) {
    const got = catalog.since(d);
    assert.deepEqual(
      got.reviews.map((r) => r.id),
      catalog.reviews.filter((r) => r.date >= d).map((r) => r.id),
    );
    assert.equal(got.count, got.reviews.length);
  }
});
