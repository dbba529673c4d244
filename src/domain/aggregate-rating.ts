import { z } from 'zod';
import { IsoDate } from './common.js';

const round2 = (n: number) => Math.round(n * 100) / 100;

export const AggregateRatingSchema = z
  .object({
    rating_value: z.number().min(0).max(5).describe('mean of all published ratings, 2 decimals; 0 when there are none'),
    review_count: z.int().min(0).describe('published reviews with text'),
    rating_count: z.int().min(0).describe('all published ratings'),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: z.object({ '1': z.int(), '2': z.int(), '3': z.int(), '4': z.int(), '5': z.int() }),
    reply_rate: z.number().min(0).max(1).describe('share of published reviews with an owner reply, 2 decimals'),
    by_source: z.array(z.object({ source: z.string(), rating_value: z.number(), rating_count: z.int() })),
    recent: z.object({ window_days: z.int(), rating_value: z.number().nullable(), rating_count: z.int() }),
    last_review_date: IsoDate.nullable(),
  })
  .meta({ id: 'AggregateRating' });
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

export const RECENT_WINDOW_DAYS = 90;

interface RatedReview {
  rating: number;
  date: string;
  text: string | null;
  source: string;
  owner_reply: unknown;
}

/**
 * The aggregate rating is a pure function of the published reviews and a reference day (the data
 * revision's date, never the wall clock, so every replica renders identical bytes for one revision).
 */
export function computeAggregateRating(reviews: readonly RatedReview[], asOf: string): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  const bySource = new Map<string, { sum: number; n: number }>();
  const windowStart = shiftDays(asOf.slice(0, 10), -RECENT_WINDOW_DAYS);
  let sum = 0;
  let withText = 0;
  let replies = 0;
  let recentSum = 0;
  let recentN = 0;
  let last: string | null = null;
  for (const r of reviews) {
    sum += r.rating;
    distribution[String(r.rating) as keyof typeof distribution]++;
    if (r.text != null && r.text !== '') withText++;
    if (r.owner_reply != null) replies++;
    const s = bySource.get(r.source) ?? { sum: 0, n: 0 };
    s.sum += r.rating;
    s.n++;
    bySource.set(r.source, s);
    if (r.date > windowStart) {
      recentSum += r.rating;
      recentN++;
    }
    if (last === null || r.date > last) last = r.date;
  }
  const n = reviews.length;
  return {
    rating_value: n ? round2(sum / n) : 0,
    review_count: withText,
    rating_count: n,
    best_rating: 5,
    worst_rating: 1,
    distribution,
    reply_rate: n ? round2(replies / n) : 0,
    by_source: [...bySource.entries()]
      .map(([source, s]) => ({ source, rating_value: round2(s.sum / s.n), rating_count: s.n }))
      .sort((a, b) => b.rating_count - a.rating_count || a.source.localeCompare(b.source)),
    recent: { window_days: RECENT_WINDOW_DAYS, rating_value: recentN ? round2(recentSum / recentN) : null, rating_count: recentN },
    last_review_date: last,
  };
}

/** YYYY-MM-DD shifted by whole days, in UTC. */
export function shiftDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
