// An engine fault on one review's text costs that review its aspects, never the import, re-analysis or
// revision holding it: its analysis is its rating's alone, and whoever stores it is told which review.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { analyseReviews, analyzerOptions, Catalog, CorpusWorker, LocalCorpus } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import type { ReviewAnalysis, StoredReview } from '../../src/domain/index.js';
import { FAULT, faultyEngine, storedReviews } from '../helpers/index.js';

const business = demoBusiness();
const rows = storedReviews(40, 21);
// A fault in the middle of the corpus, on a review with a rating and a title of its own.
const faulty: StoredReview = { ...rows[17], text: `The tech was great and the bill was fair. ${FAULT}`, rating: 2, title: 'Late again' };
rows[17] = faulty;
const analyzer = faultyEngine.createAnalyzer(analyzerOptions(business));
/** What the engine makes of the review without its text: its rating and title. */
const ratingAlone = analyzer.analyze({ ...faulty, text: null });
const input = (r: StoredReview) => ({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language });

test('the faulty engine throws on the fault, and reads the same review without it', () => {
  assert.throws(() => analyzer.analyze(input(faulty)), /engine fault/);
  const clean = analyzer.analyze({ ...input(faulty), text: 'The tech was great and the bill was fair.' });
  assert.ok(clean.aspects.length > 0);
  assert.equal(ratingAlone.sentences.length, 0);
  assert.equal(ratingAlone.aspects.length, 0);
});

test('an import analyses every review when the engine throws on one, and names that one', async () => {
  const failures: [string, string][] = [];
  const analyses = await analyseReviews(faultyEngine, (id, error) => failures.push([id, error])).analyse(business, rows.map(input));
  assert.equal(analyses.length, rows.length);
  assert.deepEqual(JSON.parse(analyses[17]), ratingAlone);
  assert.deepEqual(
    failures.map(([id]) => id),
    [faulty.id],
  );
  assert.match(failures[0][1], /engine fault \(test\)/);
  // The others are the engine's own analyses.
  for (const k of [0, 16, 18, 39]) assert.deepEqual(JSON.parse(analyses[k]), analyzer.analyze(input(rows[k])));
});

const common = (revision: number) => ({
  revision: { id: revision, created_at: `2026-12-0${revision}T00:00:00.000Z` },
  business,
  publicBaseUrl: 'https://reviews.example',
});

const worker = new CorpusWorker(faultyEngine);
after(() => worker.close());

for (const [where, corpus] of [
  ['in this thread', new LocalCorpus(faultyEngine)],
  ['on the corpus thread', worker],
] as const) {
  test(`a revision holding the faulty review is built ${where}, with its analysis from its rating alone`, async () => {
    const clean = new Map(rows.filter((r) => r !== faulty).map((r) => [r.id, r]));
    const first = await Catalog.fromReviews({ ...common(1), rows: new Map([...clean, [faulty.id, faulty]]), analyses: new Map() }, corpus);
    assert.equal(first.reviews.length, rows.length);
    assert.deepEqual(
      first.failed.map(([id]) => id),
      [faulty.id],
    );
    assert.deepEqual(JSON.parse(first.analysed.get(faulty.id)!), ratingAlone);
    assert.deepEqual(first.analysisOf(faulty.id), ratingAlone);
    assert.equal(first.analysed.size, rows.length, 'every review analysed and handed back to be stored');

    // An update that brings the fault in, beside a clean new review: both are published.
    const base = await Catalog.fromReviews({ ...common(2), rows: clean, analyses: new Map() }, corpus);
    assert.deepEqual(base.failed, []);
    const fresh = { ...storedReviews(1, 22, 'n')[0], date: '2027-01-01', published_at: '2027-01-01T00:00:00.000Z' };
    const next = await Catalog.update(
      base,
      {
        ...common(3),
        changes: new Map([
          [faulty.id, faulty],
          [fresh.id, fresh],
        ]),
        analyses: new Map(),
      },
      corpus,
    );
    assert.equal(next.reviews.length, rows.length + 1);
    assert.deepEqual(
      next.failed.map(([id]) => id),
      [faulty.id],
    );
    assert.deepEqual(next.analysisOf(faulty.id), ratingAlone);
    const made = next.analysisOf(fresh.id) as ReviewAnalysis;
    assert.deepEqual(made, analyzer.analyze(input(fresh)));
  });
}
