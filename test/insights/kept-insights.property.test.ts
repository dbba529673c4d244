// A corpus's insights moved by each revision's changes (rows taken out, rows put in at their places)
// equal buildInsights over that revision's rows, byte for byte, after any sequence of revisions: adds
// anywhere (ties of one date in any order), edits (a row out, its new version in, maybe elsewhere),
// removals, down to the empty corpus and back. And the move reads only the changed rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzerOptions } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import type { Insights } from '../../src/domain/index.js';
import { buildInsights, type CorpusReview, createAnalyzer, engine, type ReviewAnalysis } from '../../src/insights/index.js';
import { REVIEW_SENTENCES, watchAspectMask } from '../helpers/index.js';

const business = demoBusiness();
const analyzer = createAnalyzer(analyzerOptions(business));
const GENERATED = '2026-11-26T00:00:00.000Z';
// Ids the profile does not name are listed under their id, in the order a pass meets them; an id that is
// also a technician's name ties with that technician in the sort, where that order shows.
const technicians = [...business.technicians.map((t) => t.id), 'x-stranger', ...business.technicians.slice(0, 2).map((t) => t.name)];
const services = business.services.map((s) => s.id);
const areas = business.service_areas.map((a) => a.id);
const day = (d: number) => new Date(Date.UTC(2023, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
const reviewArb = fc.record({
  rating: fc.integer({ min: 1, max: 5 }),
  // Few dates, so one date holds several reviews; spread over years, so the trend window moves.
  date: fc.oneof(fc.integer({ min: 0, max: 900 }), fc.constantFrom(0, 31, 400, 880, 900)).map(day),
  text: fc.option(
    fc.array(fc.constantFrom(...REVIEW_SENTENCES), { minLength: 1, maxLength: 3 }).map((s) => s.join(' ')),
    { nil: null, freq: 6 },
  ),
  technicians: fc.array(fc.constantFrom(...technicians), { maxLength: 2 }),
  services: fc.subarray(services, { maxLength: 1 }),
  service_area: fc.option(fc.constantFrom(...areas), { nil: null }),
});
type ReviewFields = typeof reviewArb extends fc.Arbitrary<infer T> ? T : never;
/** `at`: where among the reviews of its date a new review goes (the catalog's order within a date is its own). */
const op = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('add' as const), review: reviewArb, at: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('edit' as const), pick: fc.nat(), review: reviewArb, at: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('remove' as const), pick: fc.nat() }), weight: 2 },
);

interface Kept {
  review: CorpusReview;
  analysis: ReviewAnalysis;
}

/** Inserts at the `at`-th place (mod the places there are) among the reviews of its date, keeping the corpus newest first. */
function place(kept: Kept[], k: Kept, at: number): void {
  const date = k.review.date;
  const from = kept.findIndex((x) => x.review.date <= date);
  const start = from < 0 ? kept.length : from;
  let end = start;
  while (end < kept.length && kept[end].review.date === date) end++;
  kept.splice(start + (at % (end - start + 1)), 0, k);
}

/** buildInsights with per_review emptied in place (its key keeps its position), as a corpus serialises the rest. */
function full(kept: Kept[]): string {
  const ins: Insights = buildInsights({
    business,
    reviews: kept.map((k) => k.review),
    analyses: kept.map((k) => k.analysis),
    generatedAt: GENERATED,
  });
  return JSON.stringify(Object.defineProperty(ins, 'per_review', { value: {}, enumerable: true }));
}

/** Analyses by rating and text: reviews that say the same share one (the analysis reads nothing else). */
const analyses = new Map<string, ReviewAnalysis>();
const analyse = (review: CorpusReview): ReviewAnalysis => {
  const key = `${review.rating}|${review.text}`;
  let a = analyses.get(key);
  if (!a)
    analyses.set(key, (a = analyzer.analyze({ id: review.id, rating: review.rating, text: review.text, title: null, language: null })));
  return a;
};

/**
 * Checks `runs` corpora of `start` reviews, each through up to 10 revisions; the number of revisions whose
 * kept rows a pass would have read, and of restarts.
 */
function check(start: fc.Arbitrary<[ReviewFields, number][]>, runs: number): { moved: number; restarts: number } {
  let next = 0;
  let moved = 0;
  let restarts = 0;
  const make = (r: ReviewFields, id = `r${next++}`): Kept => {
    const review: CorpusReview = { id, ...r };
    return { review, analysis: analyse(review) };
  };
  // A revision may come after a restart: a new maker takes the rows and the builders' state back from the last maker's image.
  const revision = fc.tuple(fc.array(op, { minLength: 1, maxLength: 4 }), fc.boolean());
  fc.assert(
    fc.property(start, fc.array(revision, { maxLength: 10 }), (start, revisions) => {
      let maker = engine.insightRows(business.vertical);
      // Rows are watched: a mask read of a row the revision did not change means a pass over the corpus.
      const read = new Set<object>();
      const watch = <T extends { aspectMask: number }>(row: T): T => watchAspectMask(row, (r) => read.add(r));
      const kept: Kept[] = [];
      for (const [r, at] of start) place(kept, make(r), at);
      const rowOf = new Map(kept.map((k) => [k, watch(maker.row(k.review, k.analysis))]));
      let rows = kept.map((k) => rowOf.get(k) as ReturnType<typeof maker.row>);
      assert.equal(JSON.stringify(maker.insights({ business, rows, generatedAt: GENERATED })), full(kept));
      for (const [changes, restart] of revisions) {
        if (restart) {
          const image = maker.image(rows);
          maker = engine.insightRows(business.vertical);
          rows = maker.fromImage(image, business);
          // Watched in place: the state is of this list.
          for (const row of rows) watch(row);
          kept.forEach((k, i) => rowOf.set(k, rows[i]));
          // Taken back with the rows, the state is kept without a pass (which reads every row).
          read.clear();
          maker.keep(business, rows);
          assert.equal(read.size, 0, 'keep passed over rows taken back with their state');
          restarts++;
        }
        for (const c of changes) {
          if (c.t === 'add') {
            const k = make(c.review);
            rowOf.set(k, watch(maker.row(k.review, k.analysis)));
            place(kept, k, c.at);
          } else if (kept.length > 0) {
            const [old] = kept.splice(c.pick % kept.length, 1);
            if (c.t === 'edit') {
              // Its new version: the same id, another row (a changed analysis is always a fresh value).
              const k = make(c.review, old.review.id);
              rowOf.set(k, watch(maker.row(k.review, k.analysis)));
              place(kept, k, c.at);
            }
          }
        }
        const before = rows;
        rows = kept.map((k) => rowOf.get(k) as ReturnType<typeof maker.row>);
        const now = new Set(rows);
        const was = new Set(before);
        const removed = before.filter((r) => !now.has(r));
        const added = rows.filter((r) => !was.has(r));
        read.clear();
        const held = JSON.stringify(maker.insights({ business, rows, generatedAt: GENERATED, since: { rows: before, removed, added } }));
        assert.equal(held, full(kept));
        // A change of a quarter of the rows or more is a pass (placing each row costs more); a smaller one is moved.
        if ((added.length + removed.length) * 4 >= rows.length) continue;
        for (const r of read)
          assert.ok(removed.includes(r as never) || added.includes(r as never), 'a row the revision did not change was read');
        if (rows.some((r) => !added.includes(r) && r.review.technicians.length > 0)) moved++;
      }
    }),
    { seed: 20261126, numRuns: runs },
  );
  return { moved, restarts };
}

test('insights moved by each revision equal buildInsights of its rows', () => {
  const { moved, restarts } = check(fc.array(fc.tuple(reviewArb, fc.nat()), { maxLength: 30 }), 120);
  // The watch saw revisions whose kept rows a pass would have read (in corpora this small, many changes
  // are a quarter of the rows or more, which are passes).
  assert.ok(moved > 60, `only ${moved} revisions kept attributed rows`);
  assert.ok(restarts > 100, `only ${restarts} restarts`);
});

test('and so they do in a corpus whose lists run over several blocks', () => {
  // Kept lists are blocks of a few hundred entries: here an aspect's mentions or a technician's reviews run over several.
  const { restarts } = check(fc.array(fc.tuple(reviewArb, fc.nat()), { minLength: 1500, maxLength: 1500 }), 6);
  assert.ok(restarts > 3, `only ${restarts} restarts`);
});

test('a quote that comes with a new review into a block a scan has summarised is found', () => {
  // Praise too short to quote (under 25 characters) fills the pull quote's candidates; the first document
  // summarises their block (no wording); then a review with a quotable praise joins that block.
  const short = Array.from({ length: 20 }, (_, i): Kept => {
    const review: CorpusReview = {
      id: `s${i}`,
      rating: 5,
      date: '2026-01-10',
      text: 'Great job.',
      technicians: [],
      services: [],
      service_area: null,
    };
    return { review, analysis: analyse(review) };
  });
  assert.ok(
    short[0].analysis.aspects.some((a) => a.polarity === 'positive'),
    'the short praise is an aspect’s',
  );
  const maker = engine.insightRows(business.vertical);
  const before = short.map((k) => maker.row(k.review, k.analysis));
  const first = maker.insights({ business, rows: before, generatedAt: GENERATED });
  assert.equal(first.pull_quote, '');
  const review: CorpusReview = {
    id: 'q',
    rating: 5,
    date: '2026-01-10',
    text: REVIEW_SENTENCES[0],
    technicians: [],
    services: [],
    service_area: null,
  };
  const fresh: Kept = { review, analysis: analyse(review) };
  const row = maker.row(review, fresh.analysis);
  const rows = [row, ...before];
  const moved = maker.insights({ business, rows, generatedAt: GENERATED, since: { rows: before, removed: [], added: [row] } });
  assert.notEqual(moved.pull_quote, '');
  assert.equal(JSON.stringify(moved), full([fresh, ...short]));
});
