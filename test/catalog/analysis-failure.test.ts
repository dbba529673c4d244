// An engine fault on one review's text costs that review its aspects, never the import, re-analysis or
// revision holding it: its analysis is its rating's and title's alone (its rating's alone when the title is the
// trouble too), and whoever stores it is told which review.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  analyseReviews,
  analyzePending,
  analyzerOptions,
  Catalog,
  CorpusWorker,
  type Engine,
  LocalCorpus,
} from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import type { AnalysisInput, ReviewAnalysis, StoredReview } from '../../src/domain/index.js';
import { importFile } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { FAULT, faultyEngine, GOOD_RECORD, importFileIn, storedReviews, tempDir } from '../helpers/index.js';

const business = demoBusiness();
const rows = storedReviews(40, 21);
// A fault in the middle of the corpus, on a review with a rating and a title of its own.
const faulty: StoredReview = { ...rows[17], text: `The tech was great and the bill was fair. ${FAULT}`, rating: 2, title: 'Late again' };
rows[17] = faulty;
const analyzer = faultyEngine.createAnalyzer(analyzerOptions(business));
/** What the engine makes of the review without its text: its rating and title. */
const ratingAlone = analyzer.analyze({ ...faulty, text: null });
const input = (r: StoredReview) => ({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language });

const common = (revision: number) => ({
  revision: { id: revision, created_at: `2026-12-0${revision}T00:00:00.000Z` },
  business,
  publicBaseUrl: 'https://reviews.example',
});

test('the faulty engine throws on the fault, and reads the same review without it', () => {
  assert.throws(() => analyzer.analyze(input(faulty)), /engine fault/);
  const clean = analyzer.analyze({ ...input(faulty), text: 'The tech was great and the bill was fair.' });
  assert.ok(clean.aspects.length > 0);
  assert.equal(ratingAlone.sentences.length, 0);
  assert.equal(ratingAlone.aspects.length, 0);
});

test('the analysis pool analyses every review when the engine throws on one, and names that one', async () => {
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

const records = [
  { ...GOOD_RECORD, source_review_id: 'g-fault', text: `Fixed the leak fast. ${FAULT}` },
  { ...GOOD_RECORD, source_review_id: 'g-clean', text: 'Fixed the leak fast and cleaned up.' },
];

async function storeWithProfile(): Promise<Store> {
  const store = await Store.open(join(tempDir(), 'analysis-failure.db'));
  await store.setBusiness(business, '2026-12-01T00:00:00.000Z');
  return store;
}

test('an import and `reviewcast analyze` store the rating-alone analysis as current, and name the review', async () => {
  const ctx = { engine: faultyEngine.version, business };
  const told: string[] = [];
  const imported = await storeWithProfile();
  try {
    const path = importFileIn(tempDir(), 'faulty.json', JSON.stringify(records));
    const report = await importFile(imported, path, { analyze: analyseReviews(faultyEngine, (id) => told.push(id)) });
    assert.equal(report.added, 2);
    assert.equal(told.length, 1);
    assert.deepEqual(await imported.pendingAnalyses(ctx), [], 'nothing left to analyse: the import stored both');
  } finally {
    await imported.close();
  }
  const later = await storeWithProfile();
  try {
    await importFile(later, importFileIn(tempDir(), 'faulty.json', JSON.stringify(records)));
    assert.equal((await later.pendingAnalyses(ctx)).length, 2);
    const analysed = await analyzePending(later, faultyEngine, { onFailure: (id) => told.push(id) });
    assert.equal(analysed.analysed, 2);
    assert.equal(told.length, 2);
    assert.deepEqual(await later.pendingAnalyses(ctx), []);
  } finally {
    await later.close();
  }
});

/**
 * The faulty engine, also throwing `message` on the inputs `when` picks; usable in this thread only (LocalCorpus):
 * its module is not one a thread could load it from.
 */
function throwingOn(when: (input: AnalysisInput) => boolean, message: string): Engine {
  return {
    ...faultyEngine,
    createAnalyzer: (options) => {
      const real = faultyEngine.createAnalyzer(options);
      return {
        analyze: (i) => {
          if (when(i)) throw new Error(message);
          return real.analyze(i);
        },
      };
    },
  };
}

test('an engine that fails on a plain sentence too fails the batch, as before: the fault is not in one review', async () => {
  const broken = throwingOn((i) => Boolean(i.text), 'a data file is missing (test)');
  const some = new Map(rows.slice(0, 5).map((r) => [r.id, r]));
  await assert.rejects(
    Catalog.fromReviews({ ...common(4), rows: some, analyses: new Map() }, new LocalCorpus(broken)),
    /a data file is missing/,
  );
});

test('a review whose title the engine also throws on is analysed from its rating alone', async () => {
  const titles = throwingOn((i) => Boolean(i.title?.includes(FAULT)), 'engine fault in a title (test)');
  const both = { ...faulty, title: `Late again ${FAULT}` };
  const catalog = await Catalog.fromReviews(
    { ...common(5), rows: new Map([[both.id, both]]), analyses: new Map() },
    new LocalCorpus(titles),
  );
  assert.deepEqual(catalog.analysisOf(both.id), analyzer.analyze({ ...input(both), text: null, title: null }));
  assert.deepEqual(
    catalog.failed.map(([id]) => id),
    [both.id],
  );
});

const worker = new CorpusWorker(faultyEngine);
after(() => worker.close());

for (const [where, corpus] of [
  ['in this thread', new LocalCorpus(faultyEngine)],
  ['on the corpus thread', worker],
] as const) {
  test(`a revision holding the faulty review is built ${where}, with its analysis from its rating and title alone`, async () => {
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
    assert.deepEqual(JSON.parse(next.analysed.get(faulty.id)!), ratingAlone, 'handed back to be stored');
    const made = next.analysisOf(fresh.id) as ReviewAnalysis;
    assert.deepEqual(made, analyzer.analyze(input(fresh)));
  });
}
