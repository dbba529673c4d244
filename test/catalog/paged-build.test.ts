// A server's full build reads the published rows a page at a time and stages each page on the corpus
// thread before reading the next (stageAll): the result must be the build from every row at once.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { analyzerOptions, Catalog, CorpusWorker, LocalCorpus, newestFirst, type RowsPage, stageAll } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import type { StoredReview } from '../../src/domain/index.js';
import { createAnalyzer, engine } from '../../src/insights/index.js';
import { SliceClock } from '../../src/threads/index.js';
import { storedReviews } from '../helpers/index.js';

const business = demoBusiness();
const rows = storedReviews(95, 21);
const head = {
  revision: { id: 3, created_at: '2026-11-03T00:00:00.000Z' },
  business,
  publicBaseUrl: 'https://reviews.example',
};
const analyzer = createAnalyzer(analyzerOptions(business));
const analysisOf = (r: StoredReview) =>
  JSON.stringify(analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language }));
// Every third row has no stored analysis: the corpus makes those.
const missing = new Set(rows.filter((_, i) => i % 3 === 0).map((r) => r.id));
const analyses = new Map(rows.filter((r) => !missing.has(r.id)).map((r) => [r.id, analysisOf(r)]));

async function* pages(size: number): AsyncGenerator<RowsPage> {
  for (let i = 0; i < rows.length; i += size) {
    const page = rows.slice(i, i + size);
    yield { rows: page, analyses: new Map(page.flatMap((r) => (analyses.has(r.id) ? [[r.id, analyses.get(r.id)!]] : []))) };
  }
}

const worker = new CorpusWorker(engine);
after(() => worker.close());

test('a full build staged in pages on the corpus thread equals the build from every row at once', async () => {
  const whole = await Catalog.fromReviews({ ...head, rows: new Map(rows.map((r) => [r.id, r])), analyses }, new LocalCorpus(engine));
  const staged = await stageAll(pages(7), head, worker, new SliceClock());
  assert.equal(staged.reviews.length, rows.length);
  // Only the rows without a stored analysis are analysed, each under its row's version.
  assert.deepEqual(new Set(staged.analysed.keys()), missing);
  assert.deepEqual(new Map(staged.versions), new Map(rows.filter((r) => missing.has(r.id)).map((r) => [r.id, r.version])));
  const paged = await Catalog.fromStaged({ ...head, staged }, worker);
  assert.ok(Buffer.concat(paged.reviewsJson.parts).equals(Buffer.concat(whole.reviewsJson.parts)));
  assert.ok(Buffer.concat(paged.insightsJson.parts).equals(Buffer.concat(whole.insightsJson.parts)));
  assert.equal(paged.representations.reviews.etag, whole.representations.reviews.etag);
  assert.equal(paged.representations.insights.etag, whole.representations.insights.etag);
  // Mentions the analyses found (beyond the imported attributions) are on the reviews made page by page.
  const byId = new Map(rows.map((r) => [r.id, r]));
  const gained = paged.reviews.filter((r) => {
    const row = byId.get(r.id)!;
    return r.technicians.length > row.technicians.length || r.services.length > row.services.length || r.service_area !== row.service_area;
  });
  assert.ok(gained.length > 0, 'some review gains a mention from its analysis');
  assert.deepEqual(JSON.parse(JSON.stringify(paged.reviews)), JSON.parse(JSON.stringify(whole.reviews)));
});

test('a read that fails part way ends the stage: the corpus thread builds the next revision', async () => {
  async function* failing(): AsyncGenerator<RowsPage> {
    yield* pages(10);
    throw new Error('read failed');
  }
  await assert.rejects(stageAll(failing(), head, worker, new SliceClock()), /read failed/);
  const staged = await stageAll(pages(50), head, worker, new SliceClock());
  const catalog = await Catalog.fromStaged({ ...head, staged }, worker);
  assert.equal(catalog.reviews.length, rows.length);
});

test('a full build puts its reviews newest first exactly as newestFirst orders them (ties of date and published_at, ids that prefix others)', async () => {
  const corpus = new LocalCorpus(engine);
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(
        fc.record({
          id: fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '0', '~'), minLength: 1, maxLength: 4 }),
          date: fc.constantFrom('2024-01-01', '2024-01-02', '2025-12-31'),
          published_at: fc.constantFrom(
            '2024-01-01T00:00:00.000Z',
            '2024-01-01T00:00:00Z',
            '2024-01-01T10:00:00.000Z',
            '2025-01-01T00:00:00.000Z',
          ),
        }),
        { selector: (r) => r.id, maxLength: 2500 },
      ),
      async (keys) => {
        const made = keys.map((k, i) => ({ ...rows[i % rows.length], ...k, text: null }));
        const staged = await stageAll([{ rows: made, analyses: new Map() }], head, corpus, new SliceClock());
        const expected = [...made].sort(newestFirst).map((r) => r.id);
        assert.deepEqual(
          staged.reviews.map((r) => r.id),
          expected,
        );
      },
    ),
    { numRuns: 60, seed: 5 },
  );
});
