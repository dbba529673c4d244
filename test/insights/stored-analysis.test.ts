// A stored analysis read for a corpus without parsing its sentences (readStoredAnalysis) makes the row,
// and gives the mentions, that the analysis parsed whole does; JSON laid out otherwise is parsed whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzerOptions } from '../../src/catalog/index.js';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { type CorpusAnalysis, ReviewAnalysisSchema } from '../../src/domain/index.js';
import { type CorpusReview, createAnalyzer, engine, type ReviewAnalysis } from '../../src/insights/index.js';
import { REVIEW_SENTENCES } from '../helpers/index.js';

const business = demoBusiness();
const analyzer = createAnalyzer(analyzerOptions(business));
/** The engine's reader of stored analyses (the row maker's, as the corpus calls it). */
const readStoredAnalysis = (json: string) => engine.insightRows(business.vertical).read(json);
const MENTIONS = ['sentiment', 'aspects', 'technicians', 'services', 'service_areas', 'problems', 'phrases'] as const;

const reviewOf = (id: string, text: string | null): CorpusReview => ({
  id,
  rating: 3,
  date: '2026-01-01',
  text,
  technicians: [],
  services: [],
  service_area: null,
});

/** The row's bytes (its image) and the mentions read of `json` by `read`, to compare with another read's. */
function readAs(read: (json: string) => CorpusAnalysis, review: CorpusReview, json: string) {
  const maker = engine.insightRows(business.vertical);
  const analysis = read(json);
  return {
    image: maker.image([maker.row(review, analysis)]),
    mentions: MENTIONS.map((k) => analysis[k]),
  };
}

function assertReadAsParsed(review: CorpusReview, json: string): void {
  const fast = readAs(readStoredAnalysis, review, json);
  const whole = readAs((j) => JSON.parse(j) as ReviewAnalysis, review, json);
  assert.deepEqual(fast.mentions, whole.mentions);
  assert.ok(fast.image.equals(whole.image), `another row of ${json}`);
}

test('the demo corpus: every analysis read without its sentences makes the row parsed whole makes', () => {
  const reviews = generateDemoReviews({ reviews: 1500, seed: 7 });
  let quoting = 0;
  for (const [i, r] of reviews.entries()) {
    const analysis = analyzer.analyze({ id: `d${i}`, rating: r.rating, text: r.text ?? null, title: r.title ?? null, language: null });
    // A review whose aspects quote a sentence past its first: the spans are read off the list, not taken from its head.
    if (analysis.aspects.some((a) => a.sentence > 0)) quoting++;
    assertReadAsParsed(reviewOf(`d${i}`, r.text ?? null), JSON.stringify(analysis));
  }
  assert.ok(quoting > 100, `${quoting} reviews quote a later sentence`);
});

/** Strings a stored analysis may hold, among them the very marks the reader looks for (JSON.stringify escapes their quotes). */
const nastyArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('],"aspects":[', '{"start":1,"end":2,', ',"sentences":[', '\\', '"', '\u2028', '\ud800', '}]', ''),
);
const scoreArb = fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(-0, 1e-7, -1, 1, 0));
const indexArb = fc.oneof(fc.nat(8), fc.nat({ max: 2 ** 53 - 1 }));
const polarityArb = fc.constantFrom('positive', 'negative', 'neutral', 'conflict');
const idsArb = fc.array(nastyArb, { maxLength: 3 });
/** Any analysis the schema allows, its keys in the schema's order (as the engine writes them). */
const analysisArb = fc.record(
  {
    engine: nastyArb,
    language: fc.option(nastyArb),
    sentiment: scoreArb,
    text_sentiment: fc.option(scoreArb),
    sentences: fc.array(
      fc.record({
        start: indexArb,
        end: indexArb,
        score: scoreArb,
        aspects: fc.array(fc.record({ id: nastyArb, polarity: polarityArb, score: scoreArb }), { maxLength: 3 }),
      }),
      { maxLength: 6 },
    ),
    aspects: fc.array(fc.record({ id: nastyArb, polarity: polarityArb, score: scoreArb, phrase: nastyArb, sentence: indexArb }), {
      maxLength: 5,
    }),
    technicians: idsArb,
    services: idsArb,
    service_areas: idsArb,
    problems: idsArb,
    phrases: idsArb,
  },
  { noNullPrototype: true },
);

test('any analysis the schema allows (strings holding the reader’s marks, escapes, huge indices) reads as parsed whole', () => {
  fc.assert(
    fc.property(analysisArb, (value) => {
      const json = JSON.stringify(ReviewAnalysisSchema.parse(value));
      const read = readStoredAnalysis(json);
      const whole = JSON.parse(json) as ReviewAnalysis;
      assert.deepEqual(
        MENTIONS.map((k) => read[k]),
        MENTIONS.map((k) => whole[k]),
      );
      const span = (s: { start: number; end: number } | undefined) => s && { start: s.start, end: s.end };
      for (const a of whole.aspects)
        assert.deepEqual(span(read.sentences[a.sentence]), span(whole.sentences[a.sentence]), `sentence ${a.sentence}`);
    }),
    { seed: 20261207, numRuns: 3000 },
  );
});

/** A valid analysis (the schema's) with sentences of these spans and aspects quoting these sentences. */
function analysisWith(spans: [number, number][], quoted: number[]): ReviewAnalysis {
  return ReviewAnalysisSchema.parse({
    engine: 'test',
    language: 'en',
    sentiment: 0.5,
    text_sentiment: 0.5,
    sentences: spans.map(([start, end]) => ({
      start,
      end,
      score: 0.5,
      aspects: [{ id: 'workmanship', polarity: 'positive', score: 0.5 }],
    })),
    aspects: quoted.map((sentence) => ({
      id: 'workmanship',
      polarity: 'positive',
      score: 0.5,
      phrase: '],"aspects":[{"start":9,"end":9,',
      sentence,
    })),
    technicians: [],
    services: [],
    service_areas: [],
    problems: [],
    phrases: ['{"start":7,"end":8,'],
  });
}

test('the spans are those of the sentences quoted, up to the last; an aspect past the last sentence quotes none', () => {
  const text = 'x'.repeat(200);
  const spans: [number, number][] = [
    [0, 40],
    [41, 90],
    [91, 150],
    [151, 200],
  ];
  for (const quoted of [[], [0], [2], [3, 1], [1, 1], [5], [0, 9]]) {
    const json = JSON.stringify(analysisWith(spans, quoted));
    const read = readStoredAnalysis(json);
    const last = Math.max(-1, ...quoted);
    for (const k of quoted) assert.deepEqual(read.sentences[k], k < spans.length ? { start: spans[k][0], end: spans[k][1] } : undefined);
    assert.ok(read.sentences.length <= Math.min(last + 1, spans.length));
    assertReadAsParsed(reviewOf('s', text), json);
  }
  assertReadAsParsed(reviewOf('s', text), JSON.stringify(analysisWith([], [0])));
});

test('JSON laid out otherwise is parsed whole', () => {
  const analysis = analysisWith(
    [
      [0, 50],
      [51, 120],
    ],
    [1],
  );
  const { sentences, aspects, ...rest } = analysis;
  const layouts = {
    'aspects before sentences': { ...rest, aspects, sentences },
    'sentences first': { sentences, ...rest, aspects },
    // A list before a sentence's aspects: `],"aspects":[` would end the cut inside the first sentence.
    'a sentence with a list before its aspects': {
      ...rest,
      sentences: sentences.map(({ aspects: mentions, ...s }) => ({ ...s, words: [1, 2], aspects: mentions })),
      aspects,
    },
    'a sentence with its end first': { ...rest, sentences: sentences.map(({ start, end, ...s }) => ({ end, start, ...s })), aspects },
  };
  for (const [name, value] of Object.entries(layouts)) {
    const json = JSON.stringify(value);
    assert.deepEqual(readStoredAnalysis(json), JSON.parse(json), name);
  }
});

test('the shapes the reader reads by position are the schema’s (a change to them is a change to stored-analysis.ts)', () => {
  const keys = Object.keys(ReviewAnalysisSchema.shape);
  assert.ok(keys.indexOf('sentences') > 0 && keys.indexOf('sentences') + 1 === keys.indexOf('aspects'), keys.join());
  const sentence = ReviewAnalysisSchema.shape.sentences.element;
  assert.deepEqual(Object.keys(sentence.shape), ['start', 'end', 'score', 'aspects']);
  assert.deepEqual(Object.keys(sentence.shape.aspects.element.shape), ['id', 'polarity', 'score']);
  assert.ok(!('start' in ReviewAnalysisSchema.shape.aspects.element.shape));
  // And the engine writes its keys in that order.
  const made = analyzer.analyze({ id: 'k', rating: 5, text: REVIEW_SENTENCES.join(' '), title: null, language: null });
  assert.deepEqual(Object.keys(made), keys);
  assert.deepEqual(Object.keys(made.sentences[0]), Object.keys(sentence.shape));
});
