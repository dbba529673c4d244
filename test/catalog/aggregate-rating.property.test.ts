import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { RatingTally, shiftDays } from '../../src/domain/index.js';

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The aggregate rating written out plainly from its field descriptions, to hold the tally to. */
function plainAggregate(reviews: readonly Rated[], asOf: string) {
  const n = reviews.length;
  const mean = (rs: readonly Rated[]) => rs.reduce((s, r) => s + r.rating, 0) / rs.length;
  const sources = [...new Set(reviews.map((r) => r.source))].map((source) => {
    const of = reviews.filter((r) => r.source === source);
    return { source, rating_value: round2(mean(of)), rating_count: of.length };
  });
  const start = shiftDays(asOf.slice(0, 10), -90);
  const recent = reviews.filter((r) => r.date > start);
  return {
    rating_value: n ? round2(mean(reviews)) : 0,
    review_count: reviews.filter((r) => r.hasText).length,
    rating_count: n,
    best_rating: 5,
    worst_rating: 1,
    distribution: Object.fromEntries([1, 2, 3, 4, 5].map((k) => [String(k), reviews.filter((r) => r.rating === k).length])),
    reply_rate: n ? round2(reviews.filter((r) => r.hasReply).length / n) : 0,
    by_source: sources.sort((a, b) => b.rating_count - a.rating_count || a.source.localeCompare(b.source)),
    recent: { window_days: 90, rating_value: recent.length ? round2(mean(recent)) : null, rating_count: recent.length },
    last_review_date: n
      ? reviews
          .map((r) => r.date)
          .sort()
          .at(-1)
      : null,
  };
}

interface Rated {
  rating: number;
  date: string;
  source: string;
  hasText: boolean;
  hasReply: boolean;
}

const day = fc.integer({ min: 0, max: 400 }).map((d) => shiftDays('2026-01-01', d));
const rated = fc.record({
  rating: fc.integer({ min: 1, max: 5 }),
  date: day,
  source: fc.constantFrom('google', 'yelp', 'direct', 'facebook'),
  hasText: fc.boolean(),
  hasReply: fc.boolean(),
});

test('the rating tally is the aggregate its fields describe, in any order of adding', () => {
  fc.assert(
    fc.property(fc.array(rated, { maxLength: 60 }), day, (reviews, asOf) => {
      const t = new RatingTally(`${asOf}T12:00:00.000Z`);
      for (const r of reviews) t.add(r.rating, r.date, r.source, r.hasText, r.hasReply);
      assert.deepEqual(t.result(), plainAggregate(reviews, `${asOf}T12:00:00.000Z`));
    }),
    { numRuns: 300 },
  );
});
