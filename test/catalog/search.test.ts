import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Catalog, LocalCorpus, newestFirst, ReviewIndex } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { decodeCursor, encodeCursor, foldText, type Review, type SearchQuery, SearchQuerySchema } from '../../src/domain/index.js';
import { engine } from '../../src/insights/index.js';
import { storedReviews } from '../helpers/index.js';

// A catalog built straight from demo records (no database): the search is pure logic.
const business = demoBusiness();
const rows = storedReviews(600, 7);
const catalog = await Catalog.fromReviews(
  {
    revision: { id: 1, created_at: '2026-11-01T00:00:00.000Z' },
    business,
    rows: new Map(rows.map((r) => [r.id, r])),
    analyses: new Map(),
    publicBaseUrl: 'http://127.0.0.1',
  },
  new LocalCorpus(engine),
);

const viaTrigrams = ReviewIndex.create(
  catalog.reviews,
  catalog.held.records,
  catalog.attribution.technicians,
  catalog.attribution.services,
  Infinity,
);

/** The specification of search, written the slow obvious way. */
function reference(q: SearchQuery, reviews: readonly Review[] = catalog.reviews): Review[] {
  const tech = q.mentions_technician ? catalog.attribution.technicians.resolve(q.mentions_technician) : undefined;
  const svc = q.mentions_service ? catalog.attribution.services.resolve(q.mentions_service) : undefined;
  const lang = q.language?.toLowerCase();
  const found = reviews.filter(
    (r) =>
      (q.rating === undefined || r.rating === q.rating) &&
      (q.min_rating === undefined || r.rating >= q.min_rating) &&
      (q.since === undefined || r.date >= q.since) &&
      (q.until === undefined || r.date <= q.until) &&
      (q.query === undefined || foldText(r.text ?? '').includes(foldText(q.query))) &&
      (q.mentions_technician === undefined || (tech != null && r.technicians.includes(tech))) &&
      (q.mentions_service === undefined || (svc != null && r.services.includes(svc))) &&
      (q.has_text === undefined || q.has_text === !!r.text) &&
      (q.has_owner_reply === undefined || q.has_owner_reply === (r.owner_reply !== null)) &&
      (q.source === undefined || r.source.toLowerCase() === q.source.toLowerCase()) &&
      (lang === undefined ||
        (r.language !== null && (r.language.toLowerCase() === lang || r.language.toLowerCase().startsWith(`${lang}-`)))),
  );
  const sorted = [...found].sort(newestFirst);
  if (q.sort === 'oldest') sorted.reverse();
  if (q.sort === 'highest') sorted.sort((a, b) => b.rating - a.rating);
  if (q.sort === 'lowest') sorted.sort((a, b) => a.rating - b.rating);
  return sorted;
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
    has_text: fc.boolean(),
    has_owner_reply: fc.boolean(),
    source: fc.constantFrom('google', 'Yelp', 'direct', 'nowhere'),
    language: fc.constantFrom('en', 'EN-us', 'es', 'de'),
    sort: fc.constantFrom('newest', 'oldest', 'highest', 'lowest'),
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
      // The catalog's index mostly checks texts directly at this size; the second always narrows by trigrams first.
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

test('a needle searched again (kept by the memo, its filters and dates read in one pass) answers as the first time', () => {
  // A day whose reviews end exactly at a 32-review word (as since it ends the range there, as until it starts it).
  const reviews = catalog.reviews;
  const k = [...Array(Math.floor(reviews.length / 32)).keys()].find((w) => w > 0 && reviews[32 * w - 1].date > reviews[32 * w].date)!;
  assert.ok(k, 'the demo reviews have a day that ends at a word');
  // Newest first, so a needle meets narrow ranges before wide ones: later, wider searches of a kept needle still
  // have texts to check. Other days cut the order inside a word; none leaves that side of the range open.
  const days = ['2026-10-31', '2025-07-04', reviews[32 * k - 1].date, reviews[32 * k].date, '2024-02-29', '2022-03-15', undefined];
  const index = ReviewIndex.create(catalog.reviews, catalog.held.records, catalog.attribution.technicians, catalog.attribution.services);
  for (const needle of words)
    for (const since of days)
      for (const until of days)
        for (const min_rating of [undefined, 4])
          for (const mentions_technician of [undefined, 'Sarah'])
            for (const source of [undefined, 'google']) {
              if (since && until && since > until) continue;
              const q = SearchQuerySchema.parse({ query: needle, since, until, min_rating, mentions_technician, source, limit: 100 });
              const expected = reference(q);
              // The first search checks texts, the second has the memo keep the needle, the third reads what it kept.
              for (let round = 0; round < 3; round++) {
                const got = index.search(q);
                assert.equal(got.matched, expected.length, `${JSON.stringify(q)}, search ${round + 1}`);
                assert.deepEqual(
                  got.reviews.map((r) => r.id),
                  expected.slice(0, 100).map((r) => r.id),
                );
              }
            }
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

/** Every page of a query, following next_cursor (the query re-validated with each cursor, as REST and MCP do). */
function allPages(q: SearchQuery, search: (q: SearchQuery) => ReturnType<typeof catalog.search>): Review[][] {
  const pages: Review[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = search(SearchQuerySchema.parse({ ...q, cursor }));
    pages.push(page.reviews);
    if (!page.next_cursor) return pages;
    cursor = page.next_cursor;
    assert.ok(pages.length < 1000, 'paging ends');
  }
}

test('the pages of any query, concatenated, are the unpaged answer in its order', () => {
  fc.assert(
    fc.property(query, fc.integer({ min: 1, max: 40 }), (raw, size) => {
      const parsed = SearchQuerySchema.safeParse({ ...raw, limit: size });
      fc.pre(parsed.success);
      const q = parsed.data!;
      const expected = reference(q).map((r) => r.id);
      const pages = allPages(q, (p) => catalog.search(p));
      assert.deepEqual(
        pages.flat().map((r) => r.id),
        expected,
      );
      // Only the last page is short, and it is empty only when nothing matched.
      for (const p of pages.slice(0, -1)) assert.equal(p.length, size);
      assert.ok(pages.at(-1)!.length > 0 || expected.length === 0);
    }),
    { numRuns: 300 },
  );
});

test('paging while reviews are added and removed neither repeats nor skips a review that stays', () => {
  // The reviews' fields as a held review's record has them (the index reads those).
  const fields = (reviews: Review[]) => reviews.map((r) => ({ ...r, hasText: !!r.text, hasReply: !!r.owner_reply }));
  const index = (reviews: Review[]) =>
    ReviewIndex.create(reviews, fields(reviews), catalog.attribution.technicians, catalog.attribution.services);
  let serial = 0;
  fc.assert(
    fc.property(
      query,
      fc.integer({ min: 1, max: 30 }),
      fc.array(fc.record({ add: fc.array(fc.nat(), { maxLength: 8 }), remove: fc.array(fc.nat(), { maxLength: 8 }) }), {
        minLength: 1,
        maxLength: 12,
      }),
      (raw, size, edits) => {
        const parsed = SearchQuerySchema.safeParse({ ...raw, limit: size });
        fc.pre(parsed.success);
        const q = parsed.data!;
        let reviews = [...catalog.reviews];
        const stayed = new Set(reviews.map((r) => r.id));
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let step = 0; ; step++) {
          const page = index(reviews).search(q, cursor ? decode(cursor) : undefined);
          for (const r of page.reviews) seen.push(r.id);
          if (!page.next_cursor) break;
          cursor = page.next_cursor;
          // Between two requests: an import adds copies of reviews under new ids (any date) and removes some.
          const edit = edits[step % edits.length];
          const removed = new Set(edit.remove.map((n) => reviews[n % reviews.length].id));
          for (const id of removed) stayed.delete(id);
          const added = edit.add.map((n) => ({ ...reviews[n % reviews.length], id: `added-${++serial}`.padStart(26, '0') }));
          reviews = [...reviews.filter((r) => !removed.has(r.id)), ...added].sort(newestFirst);
        }
        assert.equal(new Set(seen).size, seen.length, 'no review is returned twice');
        const expected = reference(
          q,
          catalog.reviews.filter((r) => stayed.has(r.id)),
        ).map((r) => r.id);
        const got = new Set(seen);
        assert.deepEqual(
          expected.filter((id) => !got.has(id)),
          [],
          'every review that stayed is returned',
        );
      },
    ),
    { numRuns: 60 },
  );
});

function decode(cursor: string) {
  const got = decodeCursor(cursor, 'search', 'cursor');
  assert.ok('cursor' in got);
  return got.cursor;
}

test('malformed and foreign cursors are rejected by the schema with an issue on cursor', () => {
  const first = catalog.search(SearchQuerySchema.parse({ limit: 5 }));
  assert.ok(first.next_cursor);
  for (const input of [
    { cursor: 'not a cursor' },
    { cursor: Buffer.from('{"v":1}').toString('base64url') },
    { cursor: first.next_cursor, sort: 'oldest' },
    { cursor: first.next_cursor, rating: 5 },
    { cursor: encodeCursor({ v: 1, k: 'changes', revision: 3, id: null }) },
  ]) {
    const got = SearchQuerySchema.safeParse(input);
    assert.equal(got.success, false, JSON.stringify(input));
    assert.deepEqual(
      got.error!.issues.map((i) => i.path),
      [['cursor']],
    );
  }
  // The page size may change between pages.
  assert.equal(SearchQuerySchema.safeParse({ cursor: first.next_cursor, limit: 50 }).success, true);
});

test('a needle searched again checks only texts no earlier search for it checked; the memo stays within its needles', () => {
  const index = ReviewIndex.create(
    catalog.reviews,
    catalog.held.records,
    catalog.attribution.technicians,
    catalog.attribution.services,
    Infinity,
  );
  const checks = (raw: Record<string, unknown>) => {
    const before = index.textsChecked;
    const q = SearchQuerySchema.parse(raw);
    assert.equal(index.search(q).matched, reference(q).length);
    return index.textsChecked - before;
  };
  // First search: checked, not kept (one-off needles are not kept).
  assert.ok(checks({ query: 'leak' }) > 0);
  assert.equal(index.keptNeedles, 0);
  // Second: kept, checked once more as it is filled.
  assert.ok(checks({ query: 'leak' }) > 0);
  assert.equal(index.keptNeedles, 1);
  // Any other filters with the same needle: every text they could need was checked already.
  for (const raw of [{ min_rating: 4 }, { since: '2025-01-01', rating: 1 }, { mentions_technician: 'Sarah', sort: 'oldest' }])
    assert.equal(checks({ ...raw, query: 'LEAK' }), 0, JSON.stringify(raw));
  // A filter narrower than what was checked, for a needle seen once: checks only within it.
  const narrow = checks({ query: 'drain', rating: 1, since: '2026-01-01' });
  assert.ok(narrow <= reference(SearchQuerySchema.parse({ rating: 1, since: '2026-01-01' })).length);
});
