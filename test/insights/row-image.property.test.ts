// A corpus's kept rows written as bytes and read back (what a corpus thread started again takes a
// revision over from) are the same rows: every field, the sparse quoted sentences, non-ASCII text, and
// so the same insights. Bytes that are not such an image are refused, not misread.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzerOptions } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { buildInsights, type CorpusReview, createAnalyzer, engine, type Insights, type ReviewAnalysis } from '../../src/insights/index.js';
import { dayArb, REVIEW_SENTENCES, reviewTextArb, watchAspectMask } from '../helpers/index.js';

const business = demoBusiness();
const analyzer = createAnalyzer(analyzerOptions(business));
const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
const reviewArb = fc.record({
  id: fc.string({ minLength: 1, maxLength: 12 }),
  rating: fc.integer({ min: 1, max: 5 }),
  date: fc.integer({ min: 0, max: 900 }).map((d) => new Date(Date.UTC(2023, 0, 1) + d * 86_400_000).toISOString().slice(0, 10)),
  text: fc.option(
    fc
      .tuple(
        fc.array(fc.constantFrom(...REVIEW_SENTENCES), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('', ' Très bien 👍', ' \u00a0ok'),
      )
      .map(([s, tail]) => s.join(' ') + tail),
    { nil: null, freq: 6 },
  ),
  technicians: fc.subarray(ids(business.technicians), { maxLength: 2 }),
  services: fc.subarray(ids(business.services), { maxLength: 2 }),
  service_area: fc.option(fc.constantFrom(...ids(business.service_areas)), { nil: null }),
});

/** Rows of these reviews as a corpus makes them, newest first. */
function rowsOf(maker: ReturnType<typeof engine.insightRows>, reviews: CorpusReview[]) {
  // Plain objects (fast-check's records have no prototype).
  const sorted = reviews.map((r) => ({ ...r })).sort((a, b) => (a.date === b.date ? 0 : a.date < b.date ? 1 : -1));
  return sorted.map((review) =>
    maker.row(review, analyzer.analyze({ id: review.id, rating: review.rating, text: review.text, title: null, language: null })),
  );
}

test('rows read back from their image are the rows written, and give the same insights', () => {
  fc.assert(
    fc.property(fc.array(reviewArb, { maxLength: 30 }), (reviews) => {
      const maker = engine.insightRows(business.vertical);
      const rows = rowsOf(maker, reviews);
      const image = maker.image(rows);
      // Another maker, as a new thread has: nothing of the first one's strings.
      const again = engine.insightRows(business.vertical);
      const read = again.fromImage(image);
      assert.deepStrictEqual(read, rows);
      const at = '2026-11-27T00:00:00.000Z';
      assert.equal(
        JSON.stringify(again.insights({ business, rows: read, generatedAt: at })),
        JSON.stringify(maker.insights({ business, rows, generatedAt: at })),
      );
    }),
    { seed: 20261127, numRuns: 80 },
  );
});

test('a row that quotes no sentence, a review without text and an empty corpus round-trip', () => {
  const maker = engine.insightRows(business.vertical);
  const rows = rowsOf(maker, [
    { id: 'a', rating: 5, date: '2026-01-02', text: null, technicians: [], services: [], service_area: null },
    { id: 'b', rating: 1, date: '2026-01-01', text: 'Ok.', technicians: [], services: [], service_area: null },
  ]);
  assert.deepStrictEqual(maker.fromImage(maker.image(rows)), rows);
  assert.deepStrictEqual(maker.fromImage(maker.image([])), []);
});

test('an image that outgrows its first guess (multi-byte texts) round-trips, in memory of its exact size', () => {
  const maker = engine.insightRows(business.vertical);
  // The guess counts UTF-16 units; this quoted sentence (kept whole) is about twice as many UTF-8 bytes, so the image grows.
  const text = `The plumber was late and rude, ${'é😀'.repeat(40)}.`;
  const rows = rowsOf(
    maker,
    Array.from({ length: 10 }, (_, i) => ({
      id: `r${i}`,
      rating: 1 + (i % 5),
      date: '2026-01-02',
      text,
      technicians: [],
      services: [],
      service_area: null,
    })),
  );
  assert.ok(
    rows.every((r) => r.text === text),
    'the sentence is quoted, so its row keeps it',
  );
  const image = maker.image(rows);
  // encodeRows's first guess: 64 bytes, and 60 a row besides its text's UTF-16 units, one sixteenth more.
  const guess = 64 + 10 * (60 + text.length);
  assert.ok(image.length > guess + (guess >> 4), 'more bytes than the first guess');
  // Posted to another thread as it is: a view of all of its memory, nothing more.
  assert.equal(image.byteOffset, 0);
  assert.equal(image.buffer.byteLength, image.length);
  assert.deepStrictEqual(engine.insightRows(business.vertical).fromImage(image), rows);
});

test('strings at the edges of the room for their length (padded to the widest their UTF-8 could need) round-trip', () => {
  const maker = engine.insightRows(business.vertical);
  // An id is always written: UTF-16 units 42 and 43 (1 and 2 bytes of room for the length), 5,461 and 5,462 (2
  // and 3), each in ASCII and two-byte characters (padded from 43 on: their UTF-8 needs less than the room) and
  // in three-byte ones (their UTF-8 needs all of it).
  const edgeIds = [42, 43, 127, 128, 5_461, 5_462].flatMap((n) => ['x'.repeat(n), 'é'.repeat(n), '€'.repeat(n)]);
  const rows = rowsOf(
    maker,
    edgeIds.map((id, i) => ({
      id,
      rating: 1 + (i % 5),
      date: '2026-01-02',
      text: null,
      technicians: [],
      services: [],
      service_area: null,
    })),
  );
  const read = engine.insightRows(business.vertical).fromImage(maker.image(rows));
  assert.deepStrictEqual(read, rows);
  assert.deepStrictEqual(
    read.map((r) => r.review.id),
    edgeIds,
  );
});

test('the builders’ state goes with the rows: taken back for the profile it was made for, and its document is a pass’s', () => {
  const maker = engine.insightRows(business.vertical);
  const reviews = Array.from({ length: 40 }, (_, i) => ({
    id: `r${i}`,
    rating: 1 + (i % 5),
    date: `2026-01-${String(28 - (i % 28)).padStart(2, '0')}`,
    text: REVIEW_SENTENCES[i % REVIEW_SENTENCES.length],
    technicians: [business.technicians[i % 3].id],
    services: [],
    service_area: null,
  }));
  const rows = rowsOf(maker, reviews);
  const at = '2026-11-27T00:00:00.000Z';
  // Before any insights the maker has no state of these rows to write.
  const rowsOnly = maker.image(rows);
  const documentOf = (profile: typeof business) => JSON.stringify(maker.insights({ business: profile, rows, generatedAt: at }));
  const renamed = { ...business, technicians: business.technicians.map((t, i) => (i === 0 ? { ...t, name: 'Someone Else' } : t)) };
  const renamedDocument = documentOf(renamed);
  const document = documentOf(business);
  const withState = maker.image(rows);
  assert.ok(withState.length > rowsOnly.length, 'the state follows the rows');
  // The same image with its state zeroed after its key: the state does not load (its first aspect is not the
  // taxonomy's), and the rows still do. Layout (row-image.ts): version and count (a byte each here), the rows'
  // and state's length (4), the rows, the state's length (4), the state (its key first), the shared strings.
  const rowsLength = rowsOnly.readUInt32LE(2) - 4;
  const stateAt = 6 + rowsLength + 4;
  const stateEnd = stateAt + withState.readUInt32LE(6 + rowsLength);
  let keyEnd = stateAt;
  while ((withState[keyEnd] as number) >= 0x80) keyEnd++;
  const damaged = Buffer.from(withState).fill(0, keyEnd + 1, stateEnd);
  assert.equal(rowsOnly.subarray(6, 6 + rowsLength).compare(withState.subarray(6, 6 + rowsLength)), 0, 'the layout as read');
  const cases = [
    { image: withState, given: business, taken: true },
    { image: damaged, given: business, taken: false },
    { image: withState, given: renamed, taken: false },
    { image: withState, given: undefined, taken: false },
    { image: rowsOnly, given: business, taken: false },
  ];
  for (const { image, given, taken } of cases) {
    const again = engine.insightRows(business.vertical);
    const read = again.fromImage(image, given);
    assert.deepStrictEqual(read, rows);
    // A pass reads every row's aspect mask.
    let reads = 0;
    for (const row of read) watchAspectMask(row, () => reads++);
    const profile = given ?? business;
    again.keep(profile, read);
    assert.equal(reads === 0, taken, `state taken: ${taken}`);
    // No change: the document of the state kept, taken back or made.
    const kept = again.insights({ business: profile, rows: read, generatedAt: at, since: { rows: read, removed: [], added: [] } });
    assert.equal(JSON.stringify(kept), profile === renamed ? renamedDocument : document);
  }
});

test('bytes that are not an image of rows are refused', () => {
  const maker = engine.insightRows(business.vertical);
  const rows = rowsOf(maker, [
    { id: 'a', rating: 4, date: '2026-01-02', text: REVIEW_SENTENCES[0], technicians: [], services: [], service_area: null },
  ]);
  const image = maker.image(rows);
  assert.throws(() => maker.fromImage(image.subarray(0, image.length - 3)), { name: 'RowImageError' }, 'cut short');
  assert.throws(() => maker.fromImage(Buffer.concat([image, Buffer.from([0])])), { name: 'RowImageError' }, 'bytes after the last row');
  const otherVersion = Buffer.from(image);
  otherVersion[0] = 99;
  assert.throws(() => maker.fromImage(otherVersion), /version 99/);
});

test('analyses at their edges (quoted sentences past the list or shared, unknown ids, repeats): kept rows, their image and an update give buildInsights', () => {
  const at = '2026-11-27T00:00:00.000Z';
  const empty = buildInsights({ business, reviews: [], analyses: [], generatedAt: at });
  const aspectIds = [...empty.aspects.map((a) => a.id), 'not_an_aspect'];
  const problemIds = [
    ...new Set(REVIEW_SENTENCES.flatMap((text) => analyzer.analyze({ id: 'p', rating: 3, text, title: null, language: null }).problems)),
    'not_a_problem',
  ];
  const score = (digits: number) => fc.integer({ min: -(10 ** digits), max: 10 ** digits }).map((n) => n / 10 ** digits);
  const itemArb = fc.record({
    rating: fc.integer({ min: 1, max: 5 }),
    date: dayArb('2025-01-01', 61),
    text: reviewTextArb(8),
    technicians: fc.array(fc.constantFrom(...ids(business.technicians)), { maxLength: 3 }),
    sentiment: score(3),
    sentences: fc.array(
      fc.tuple(fc.nat(200), fc.nat(300)).map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b), score: 0, aspects: [] })),
      { maxLength: 5 },
    ),
    aspects: fc.array(
      fc.record({
        id: fc.constantFrom(...aspectIds),
        polarity: fc.constantFrom('positive', 'negative', 'neutral', 'conflict') as fc.Arbitrary<'positive'>,
        score: score(2),
        phrase: fc.constantFrom('', 'water heater', 'price', 'drain'),
        sentence: fc.nat(7),
      }),
      { maxLength: 4 },
    ),
    problems: fc.array(fc.constantFrom(...problemIds), { maxLength: 3 }),
    // Phrases of one head, one the end of another: a topic's label counts such a review once.
    phrases: fc.uniqueArray(fc.constantFrom('new water heater', 'water heater', 'heater', 'price', 'drain'), { maxLength: 3 }),
  });
  const doc = (ins: Insights) => JSON.stringify(Object.defineProperty(ins, 'per_review', { value: {}, enumerable: true }));
  let next = 0;
  fc.assert(
    fc.property(fc.array(itemArb, { maxLength: 40 }), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (items, drop) => {
      const kept = items
        .map((it) => {
          const review: CorpusReview = {
            id: `e${next++}`,
            rating: it.rating,
            date: it.date,
            text: it.text,
            technicians: it.technicians,
            services: [],
            service_area: null,
          };
          const analysis: ReviewAnalysis = {
            ...{ engine: 'x', language: null, text_sentiment: null, technicians: [], services: [], service_areas: [] },
            ...{ sentiment: it.sentiment, sentences: it.sentences, aspects: it.aspects, problems: it.problems, phrases: it.phrases },
          };
          return { review, analysis };
        })
        .sort((a, b) => (a.review.date === b.review.date ? 0 : a.review.date < b.review.date ? 1 : -1));
      const full = (ks: typeof kept) =>
        doc(buildInsights({ business, reviews: ks.map((k) => k.review), analyses: ks.map((k) => k.analysis), generatedAt: at }));
      const maker = engine.insightRows(business.vertical);
      const rows = kept.map((k) => maker.row(k.review, k.analysis));
      assert.equal(doc(maker.insights({ business, rows, generatedAt: at })), full(kept));
      const image = maker.image(rows);
      const again = engine.insightRows(business.vertical);
      const read = again.fromImage(image, business);
      // The builders' state taken back with the rows: its document (no change) is a pass's, and it writes the image it was read from.
      const unchanged = { rows: read, removed: [], added: [] };
      assert.equal(doc(again.insights({ business, rows: read, generatedAt: at, since: unchanged })), full(kept));
      assert.ok(again.image(read).equals(image), 'rows and state read back write the same image');
      // Rows taken out of the state read back, then put back as made from their analyses.
      const stay = read.filter((_, i) => !drop[i]);
      const removed = read.filter((_, i) => drop[i]);
      assert.equal(
        doc(again.insights({ business, rows: stay, generatedAt: at, since: { rows: read, removed, added: [] } })),
        full(kept.filter((_, i) => !drop[i])),
      );
      const back = read.map((r, i) => (drop[i] ? again.row(kept[i].review, kept[i].analysis) : r));
      const added = back.filter((_, i) => drop[i]);
      assert.equal(doc(again.insights({ business, rows: back, generatedAt: at, since: { rows: stay, removed: [], added } })), full(kept));
    }),
    { seed: 20261127, numRuns: 200 },
  );
});
