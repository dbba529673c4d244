// `GET /api/reviews/since/{date}` is spliced from the rendered /reviews.json instead of rendered per
// date, and a search page is copied from it item by item: their bytes must equal JSON.stringify of the
// result, and their ETag the hash-tree digest a render of that document gives, on a catalog built from
// scratch, built on a previous one, or loaded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Catalog, decodeSnapshot, LocalCorpus, SplicedJson, snapshotFormat } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { SearchQuerySchema, type StoredReview } from '../../src/domain/index.js';
import { engine } from '../../src/insights/index.js';
import { storedReviews } from '../helpers/index.js';

const FORMAT = snapshotFormat(engine.version);

const business = demoBusiness();
const common = (revision: number) => ({
  revision: { id: revision, created_at: `2026-11-0${revision}T00:00:00.000Z` },
  business,
  publicBaseUrl: 'https://reviews.example',
});
const rows = new Map(storedReviews(150, 21).map((r) => [r.id, r]));
// One corpus engine follows one chain of revisions (it holds the revision it built last).
const corpus = new LocalCorpus(engine);
const scratch = await Catalog.fromReviews({ ...common(1), rows, analyses: new Map() }, corpus);
const added: StoredReview = { ...storedReviews(1, 22, 'new')[0], changed_revision: 2 };
const updated = await Catalog.update(scratch, { ...common(2), changes: new Map([[added.id, added]]), analyses: new Map() }, corpus);
const updatedFromScratch = await Catalog.fromReviews(
  { ...common(2), rows: new Map([...rows, [added.id, added]]), analyses: new Map() },
  new LocalCorpus(engine),
);

async function reloaded(c: Catalog): Promise<Catalog> {
  return Catalog.fromSnapshot(
    { id: c.revision, created_at: c.generatedAt },
    await decodeSnapshot(await c.snapshot(FORMAT), FORMAT),
    'https://reviews.example',
  );
}

const dates = (c: Catalog) =>
  fc.oneof(
    fc.constantFrom(...c.reviews.map((r) => r.date)),
    fc.date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  );

test('since bodies are JSON.stringify of the since result, byte for byte, with the hash-tree digest of that document', async () => {
  const loaded = await reloaded(updated);
  fc.assert(
    fc.property(dates(updated), (date) => {
      const expected = JSON.stringify(updated.since(date));
      const reference = SplicedJson.render(updated.since(date), 'reviews', 'array', {
        keys: updated.since(date).reviews.map((r) => r.id),
        values: updated.since(date).reviews,
      });
      for (const c of [updated, updatedFromScratch, loaded]) {
        const rep = c.sinceRepresentation(date);
        assert.equal(Buffer.concat(rep.chunks as Buffer[]).toString(), expected, date);
        assert.equal(rep.length, Buffer.byteLength(expected));
        assert.equal(rep.etag, `"${reference.digest.toString('base64url').slice(0, 32)}"`, date);
      }
    }),
    { seed: 13, numRuns: 300 },
  );
});

test('a since body holds its head and tail only: the reviews are a view of /reviews.json, not a copy', () => {
  const oldest = updated.reviews.at(-1)!.date;
  const rep = updated.sinceRepresentation(oldest);
  // Its own head and tail around views of the body's parts (an update's body is in parts).
  const items = rep.chunks.slice(1, -1);
  const memory = new Set(updated.representations.reviews.chunks.map((part) => part.buffer));
  for (const view of items) assert.ok(memory.has(view.buffer), 'same memory as a part of /reviews.json');
  assert.equal(
    rep.track(() => undefined),
    rep.length - items.reduce((n, v) => n + v.length, 0),
  );
  assert.equal(JSON.parse(Buffer.concat(rep.chunks as Buffer[]).toString()).count, updated.reviews.length, 'the body is every review');
});

const searches = fc.record(
  {
    min_rating: fc.constantFrom(1, 2.5, 4, 5),
    since: fc
      .date({ min: new Date('2021-01-01'), max: new Date('2026-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    query: fc.constantFrom('leak', 'on time', 'price', 'ÉTÉ', 'xyzzy', 'a'),
    mentions_technician: fc.constantFrom('mike-delgado', 'Sarah', 'nobody'),
    has_owner_reply: fc.boolean(),
    sort: fc.constantFrom('newest', 'oldest', 'highest', 'lowest'),
    limit: fc.integer({ min: 1, max: 40 }),
  },
  { requiredKeys: [] },
);

test('search pages are JSON.stringify of the search result, byte for byte, cursor after cursor, with the hash-tree digest of that document', async () => {
  const loaded = await reloaded(updated);
  fc.assert(
    fc.property(searches, (raw) => {
      const q = SearchQuerySchema.parse(raw);
      for (const c of [updated, updatedFromScratch, loaded]) {
        let cursor: string | undefined;
        for (let page = 0; page < 3; page++) {
          const result = c.search({ ...q, cursor });
          const reference = SplicedJson.render(result, 'reviews', 'array', {
            keys: result.reviews.map((r) => r.id),
            values: result.reviews,
          });
          const got = c.searchPage({ ...q, cursor });
          assert.equal(Buffer.concat(got.parts).toString(), JSON.stringify(result));
          assert.deepEqual(got.digest, reference.digest);
          assert.equal(got.next_cursor, result.next_cursor);
          if (!result.next_cursor) break;
          cursor = result.next_cursor;
        }
      }
    }),
    { seed: 17, numRuns: 200 },
  );
});
