// The rows a corpus keeps between revisions (each analysis reduced to what the insights read) give
// the same /insights.json as buildInsights over the whole corpus, byte for byte, after any seeded
// sequence of additions, edits and removals made on the kept rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { collectGarbage } from '../../src/app/index.js';
import { analyzerOptions } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import type { Insights } from '../../src/domain/index.js';
import { buildInsights, type CorpusReview, createAnalyzer, engine, type ReviewAnalysis } from '../../src/insights/index.js';
import { dayArb, reviewTextArb, watchAspectMask } from '../helpers/index.js';

const business = demoBusiness();
const analyzer = createAnalyzer(analyzerOptions(business));
const technicians = business.technicians.map((t) => t.id);
const reviewArb = fc.record({
  rating: fc.integer({ min: 1, max: 5 }),
  date: dayArb('2023-01-01', 901),
  text: reviewTextArb(6),
  technicians: fc.subarray(technicians, { maxLength: 1 }),
});
type ReviewFields = typeof reviewArb extends fc.Arbitrary<infer T> ? T : never;
const op = fc.oneof(
  fc.record({ t: fc.constant('add' as const), review: reviewArb }),
  fc.record({ t: fc.constant('edit' as const), pick: fc.nat(), review: reviewArb }),
  fc.record({ t: fc.constant('remove' as const), pick: fc.nat() }),
);

interface Kept {
  review: CorpusReview;
  analysis: ReviewAnalysis;
}

/** Newest first, ties by id: the one order both builds are given. */
const order = (a: Kept, b: Kept) =>
  a.review.date === b.review.date ? (a.review.id < b.review.id ? -1 : 1) : a.review.date < b.review.date ? 1 : -1;

/** buildInsights with per_review emptied in place (its key keeps its position), as a corpus serialises the rest. */
function full(kept: Kept[]): string {
  const ins: Insights = buildInsights({
    business,
    reviews: kept.map((k) => k.review),
    analyses: kept.map((k) => k.analysis),
    generatedAt: '2026-11-26T00:00:00.000Z',
  });
  return JSON.stringify(Object.defineProperty(ins, 'per_review', { value: {}, enumerable: true }));
}

test('insights of kept rows equal buildInsights of the corpus after any sequence of changes', () => {
  let next = 0;
  const make = (r: ReviewFields): Kept => {
    const review: CorpusReview = { id: `r${next++}`, services: [], service_area: null, ...r };
    return { review, analysis: analyzer.analyze({ id: review.id, rating: review.rating, text: review.text, title: null, language: null }) };
  };
  fc.assert(
    fc.property(fc.array(reviewArb, { maxLength: 40 }), fc.array(fc.array(op, { maxLength: 5 }), { maxLength: 8 }), (start, revisions) => {
      const maker = engine.insightRows(business.vertical);
      let kept = start.map(make).sort(order);
      let rows = kept.map((k) => maker.row(k.review, k.analysis));
      for (const changes of revisions) {
        // Changed rows are made anew; every other row is carried as the corpus carries it.
        const byId = new Map(kept.map((k, i) => [k.review.id, rows[i]]));
        for (const c of changes) {
          if (c.t === 'add') {
            const k = make(c.review);
            kept.push(k);
            byId.set(k.review.id, maker.row(k.review, k.analysis));
          } else if (kept.length > 0) {
            const i = c.pick % kept.length;
            const id = kept[i].review.id;
            if (c.t === 'remove') {
              kept.splice(i, 1);
              byId.delete(id);
            } else {
              const k = make(c.review);
              kept[i] = { review: { ...k.review, id }, analysis: k.analysis };
              byId.set(id, maker.row(kept[i].review, kept[i].analysis));
            }
          }
        }
        kept = kept.sort(order);
        rows = kept.map((k) => byId.get(k.review.id)!);
        const held = JSON.stringify(maker.insights({ business, rows, generatedAt: '2026-11-26T00:00:00.000Z' }));
        assert.equal(held, full(kept));
      }
    }),
    { seed: 20261126, numRuns: 60 },
  );
});

test('a kept row is one object: its own review and analysis, its id lists shared, its aspects and phrases read back, its text kept from the first quoted sentence to the last', () => {
  const maker = engine.insightRows(business.vertical);
  let next = 0;
  const made = fc.sample(reviewArb, { numRuns: 300, seed: 20261127 }).map((r) => {
    const review: CorpusReview = { id: `s${next++}`, services: [], service_area: null, ...r };
    const analysis = analyzer.analyze({ id: review.id, rating: review.rating, text: review.text, title: null, language: null });
    return { review, analysis, row: maker.row(review, analysis) };
  });
  let spans = 0;
  for (const { review, analysis, row } of made) {
    assert.equal(row.review, row);
    assert.equal(row.analysis, row);
    assert.deepEqual(row.analysis.aspects, analysis.aspects);
    assert.equal(row.aspectCount, analysis.aspects.length);
    assert.deepEqual(row.phrases, analysis.phrases);
    assert.deepEqual(
      Array.from({ length: row.phraseCount }, (_, i) => row.phraseAt(i)),
      analysis.phrases,
    );
    analysis.aspects.forEach((a, k) => {
      assert.deepEqual(
        [row.aspectId(k), row.aspectPolarity(k), row.aspectScore(k), row.aspectScoreMilli(k), row.aspectPhrase(k)],
        [a.id, a.polarity, a.score, Math.round(a.score * 1000), a.phrase],
      );
      // A sentence of a quote's length is cut from what the row keeps of the text, equal to the review's.
      const s = analysis.sentences[a.sentence];
      const quote = s && s.end - s.start >= 25 && s.end - s.start <= 280 ? (review.text as string).slice(s.start, s.end) : null;
      assert.equal(row.aspectStart(k) < 0 ? null : row.text?.slice(row.aspectStart(k), row.aspectEnd(k)), quote);
      if (quote !== null) spans++;
    });
    // It keeps the text from the first quoted sentence to the last, a character of it when none is, or null.
    const quoted = analysis.aspects
      .map((a) => analysis.sentences[a.sentence])
      .filter((x) => x && x.end - x.start >= 25 && x.end - x.start <= 280);
    const expected =
      review.text === null || !/\S/.test(review.text)
        ? null
        : quoted.length === 0
          ? review.text.trim()[0]
          : review.text.slice(Math.min(...quoted.map((x) => x!.start)), Math.max(...quoted.map((x) => x!.end)));
    assert.equal(row.text, expected);
    assert.equal(row.hasText, expected !== null);
  }
  assert.ok(spans > 100, `only ${spans} aspects quote a sentence: the sample proves little`);
  // One list object per distinct list of technicians (the rows' own lists are as many as the rows).
  const lists = made.filter((m) => m.review.technicians.length > 0);
  const distinct = new Set(lists.map((m) => m.review.technicians.join(',')));
  assert.ok(lists.length > 2 * distinct.size);
  assert.equal(new Set(lists.map((m) => m.row.review.technicians)).size, distinct.size);
});

test('a kept row reads back every score it was given: whole thousandths kept small, any other number as it is', () => {
  const maker = engine.insightRows(business.vertical);
  const review: CorpusReview = {
    id: 'scores',
    rating: 2,
    date: '2026-01-01',
    text: 'The plumber was late and rude.',
    technicians: [],
    services: [],
    service_area: null,
  };
  const analysis = analyzer.analyze({ id: review.id, rating: review.rating, text: review.text, title: null, language: null });
  assert.ok(analysis.aspects.length > 0);
  const thousandths = fc.integer({ min: -2_000_000, max: 2_000_000 }).map((n) => n / 1000);
  fc.assert(
    fc.property(fc.oneof(thousandths, fc.double()), fc.oneof(thousandths, fc.double()), (sentiment, score) => {
      const given = { ...analysis, sentiment, aspects: analysis.aspects.map((a) => ({ ...a, score })) };
      const row = maker.row(review, given);
      // −0 reads back as 0: equal, and a mean or JSON reads them alike.
      const back = (x: number) => (Object.is(x, -0) ? 0 : x);
      assert.ok(Object.is(row.analysis.sentiment, back(sentiment)), `${row.analysis.sentiment} for ${sentiment}`);
      for (const a of row.analysis.aspects) assert.ok(Object.is(a.score, back(score)), `${a.score} for ${score}`);
    }),
    { seed: 20261128, numRuns: 2000 },
  );
});

test('an analysis naming an aspect twice (another engine might) counts both mentions, lists its review once, and a kept state moves as a pass', () => {
  const maker = engine.insightRows(business.vertical);
  const make = (id: string, date: string, text: string, twice = false): Kept => {
    const review: CorpusReview = { id, rating: 2, date, text, technicians: [], services: [], service_area: null };
    const analysis = analyzer.analyze({ id, rating: 2, text, title: null, language: null });
    if (twice) analysis.aspects = [...analysis.aspects, { ...analysis.aspects[0], score: -0.2 }];
    return { review, analysis };
  };
  const twice = make('twice', '2026-01-25', 'The plumber was late and rude, and the repair leaked again a week later.', true);
  const id = twice.analysis.aspects[0].id;
  // Enough other reviews that one change is moved, not passed over (held.ts: a quarter of the rows or more is a pass).
  const others = Array.from({ length: 12 }, (_, i) =>
    make(
      `o${i}`,
      `2026-01-${String(20 - i).padStart(2, '0')}`,
      i % 2 ? 'The plumber was late again and never called.' : 'Fair price and a tidy job.',
    ),
  );
  const kept = [...others, twice].sort(order);
  const rows = kept.map((k) => maker.row(k.review, k.analysis));
  const generatedAt = '2026-11-26T00:00:00.000Z';
  const all = maker.insights({ business, rows, generatedAt });
  const aspect = all.aspects.find((a) => a.id === id);
  assert.equal(aspect?.mention_count, kept.filter((k) => k.analysis.aspects.some((a) => a.id === id)).length + 1);
  const examples = aspect?.example_review_ids ?? [];
  assert.equal(new Set(examples).size, examples.length, 'each review once among the examples');
  assert.ok(examples.includes('twice'));
  assert.equal(JSON.stringify(all), full(kept));
  // Out and back in: each change moves the kept state (no other row is read) and equals a pass.
  let reads = 0;
  for (const row of rows) if (row.id !== 'twice') watchAspectMask(row, () => reads++);
  const without = rows.filter((r) => r.id !== 'twice');
  const twiceRow = rows.find((r) => r.id === 'twice')!;
  const out = maker.insights({ business, rows: without, generatedAt, since: { rows, added: [], removed: [twiceRow] } });
  assert.equal(JSON.stringify(out), full(kept.filter((k) => k.review.id !== 'twice')));
  const back = maker.insights({ business, rows, generatedAt, since: { rows: without, added: [twiceRow], removed: [] } });
  assert.equal(JSON.stringify(back), full(kept));
  assert.equal(reads, 0, 'a change of one row read no other row');
});

test('a kept row keeps a copy of the part of its text it quotes from, not the whole text', () => {
  const maker = engine.insightRows(business.vertical);
  const sentence = 'The plumber was late and rude, and the repair leaked again.';
  const analysis = analyzer.analyze({ id: 'q', rating: 1, text: sentence, title: null, language: null });
  assert.ok(analysis.aspects.some((a) => a.sentence === 0));
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  // 400 texts of 100 KB (40 MB), old enough to be in the old generation, where a slice keeps its text alive.
  let texts: string[] | null = Array.from({ length: 400 }, (_, i) =>
    JSON.parse(JSON.stringify(`${sentence} ${`Filler ${i}. `.repeat(9_000)}`)),
  );
  collectGarbage();
  collectGarbage();
  const rows = texts.map((text, i) =>
    maker.row({ id: `t${i}`, rating: 1, date: '2026-01-01', text, technicians: [], services: [], service_area: null }, analysis),
  );
  assert.ok(
    rows.every((r) => r.text === sentence),
    'each row keeps its quoted sentence',
  );
  texts = null;
  collectGarbage();
  const kept = process.memoryUsage().heapUsed - before;
  assert.ok(kept < 8_000_000, `the rows hold ${kept} bytes: the texts are still alive`);
});
