// The quotes (each aspect's, and the pull quote) are chosen by a scan that skips each block of 256
// candidates its summary says cannot move what is kept. Here corpora of thousands of candidates, with
// repeated wordings and tied strengths, are held to a plain reading of the rules with no skipping: the
// strongest first, ties to the newer review, one quote per review and per wording.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ReviewAnalysis, ReviewAspect } from '../../src/domain/index.js';
import { buildInsights, type CorpusReview } from '../../src/insights/index.js';

const business = { vertical: 'home_services', name: 'Quotes', technicians: [], services: [], service_areas: [] };
const ASPECTS = ['punctuality', 'pricing', 'workmanship'];
// Some under a quote's 25 characters: never quoted.
const SENTENCES = [
  'They arrived on time and fixed it.',
  'The price was fair for the work done.',
  'Too short.',
  'The crew cleaned up after the repair.',
  'They came back twice to finish the job.',
  'Nice.',
  'The estimate matched the final bill exactly.',
  'Our water heater works better than ever.',
  'The technician explained every option clearly.',
  'Nobody called to say they would be late.',
];
/**
 * Mostly weak, now and then strong (anywhere in the corpus, so a block far down can move what is kept, and
 * several strong wordings in one block, so a summary one wording short misses one), ties often.
 */
const strengthArb = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(0.1, 0.2, 0.3) },
  { weight: 1, arbitrary: fc.constantFrom(0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1) },
);

const mentionArb = fc.record({
  aspect: fc.constantFrom(...ASPECTS),
  polarity: fc.constantFrom<ReviewAspect['polarity']>('positive', 'negative', 'neutral'),
  strength: strengthArb,
  sentence: fc.nat({ max: 2 }),
});
const reviewArb = fc.record({
  rating: fc.integer({ min: 1, max: 5 }),
  day: fc.nat({ max: 40 }),
  sentences: fc.array(fc.nat({ max: SENTENCES.length - 1 }), { minLength: 3, maxLength: 3 }),
  mentions: fc.array(mentionArb, { maxLength: 3 }),
});
type Made = { review: CorpusReview; analysis: ReviewAnalysis };

function made(r: typeof reviewArb extends fc.Arbitrary<infer T> ? T : never, i: number): Made {
  const parts = r.sentences.map((s) => SENTENCES[s]);
  const text = parts.join(' ');
  let at = 0;
  const spans = parts.map((p) => {
    const span = { start: at, end: at + p.length, score: 0, aspects: [] };
    at += p.length + 1;
    return span;
  });
  const aspects = r.mentions.map(
    (m): ReviewAspect => ({
      id: m.aspect,
      polarity: m.polarity,
      score: m.polarity === 'negative' ? -m.strength : m.strength,
      phrase: '',
      sentence: m.sentence,
    }),
  );
  const date = `2026-0${1 + Math.floor(r.day / 28)}-${String(1 + (r.day % 28)).padStart(2, '0')}`;
  return {
    review: { id: `q${i}`, rating: r.rating, date, text, technicians: [], services: [], service_area: null },
    analysis: {
      engine: 'test',
      language: 'en',
      sentiment: 0,
      text_sentiment: null,
      sentences: spans,
      aspects,
      technicians: [],
      services: [],
      service_areas: [],
      problems: [],
      phrases: [],
    },
  };
}

interface Quote {
  reviewId: string;
  text: string;
  strength: number;
}

/** The best `k` of candidates met in order: stronger than the k-th kept, not a review or wording kept; ties keep the earlier. */
function best(candidates: Iterable<Quote>, k: number): Quote[] {
  const kept: Quote[] = [];
  for (const c of candidates) {
    if (kept.length === k && c.strength <= kept[k - 1].strength) continue;
    if (kept.some((q) => q.reviewId === c.reviewId || q.text === c.text)) continue;
    let at = kept.length;
    while (at > 0 && kept[at - 1].strength < c.strength) at--;
    kept.splice(at, 0, c);
    if (kept.length > k) kept.pop();
  }
  return kept;
}

/** Every mention of the corpus (newest first) with a quotable sentence that `pick` takes, as a candidate. */
function* candidates(corpus: Made[], pick: (a: ReviewAspect, m: Made) => number | null): Generator<Quote> {
  for (const m of corpus) {
    for (const a of m.analysis.aspects) {
      const strength = pick(a, m);
      const span = m.analysis.sentences[a.sentence];
      const length = span.end - span.start;
      if (strength === null || length < 25 || length > 280) continue;
      yield { reviewId: m.review.id, text: (m.review.text as string).slice(span.start, span.end), strength };
    }
  }
}

test('quotes and the pull quote are the plain choice over every candidate, blocks skipped or not', () => {
  fc.assert(
    fc.property(fc.array(reviewArb, { minLength: 2000, maxLength: 6000 }), (reviews) => {
      // Newest first; equal dates keep the order given.
      const corpus = reviews.map(made).sort((a, b) => (a.review.date === b.review.date ? 0 : a.review.date < b.review.date ? 1 : -1));
      const doc = buildInsights({
        business,
        reviews: corpus.map((m) => m.review),
        analyses: corpus.map((m) => m.analysis),
        generatedAt: '2026-11-29T00:00:00.000Z',
      });
      for (const id of ASPECTS) {
        const a = doc.aspects.find((x) => x.id === id)!;
        const of = (polarity: 'positive' | 'negative') =>
          best(
            candidates(corpus, (x) => (x.id === id && x.polarity === polarity ? Math.abs(x.score) : null)),
            2,
          ).map((q) => ({ review_id: q.reviewId, text: q.text, sentiment: polarity }));
        const [major, minor] = a.positive_count >= a.negative_count ? [of('positive'), of('negative')] : [of('negative'), of('positive')];
        assert.deepEqual(
          a.quotes,
          [major[0], minor[0], major[1]].filter((q) => q !== undefined),
          id,
        );
      }
      const praise = (high: boolean) =>
        best(
          candidates(
            corpus.filter((m) => m.analysis.aspects.some((x) => x.polarity === 'positive') && m.review.rating >= 4 === high),
            (x) => (x.polarity === 'positive' ? x.score : null),
          ),
          1,
        )[0];
      const pull = praise(true) ?? praise(false);
      assert.equal(doc.pull_quote, pull?.text ?? '');
      assert.equal(doc.pull_quote_review_id, pull?.reviewId ?? null);
    }),
    // A failure is reported as found: shrinking corpora of thousands of reviews would take minutes.
    { numRuns: 25, seed: 31, endOnFailure: true },
  );
});
