import { z } from 'zod';
import { IsoDateSchema } from './common.js';

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
    last_review_date: IsoDateSchema.nullable(),
  })
  .meta({ id: 'AggregateRating' });
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

const RECENT_WINDOW_DAYS = 90;

/**
 * The aggregate rating of the published reviews, added one at a time (a caller can pause between
 * reviews): a pure function of them and a reference day (the data revision's date, never the wall
 * clock, so every replica renders identical bytes for one revision).
 */
export class RatingTally {
  /** Reviews rated 1 to 5, at index rating - 1. */
  private readonly distribution = [0, 0, 0, 0, 0];
  private readonly bySource = new Map<string, { sum: number; n: number }>();
  private readonly windowStart: string;
  private n = 0;
  private sum = 0;
  private withText = 0;
  private replies = 0;
  private recentSum = 0;
  private recentN = 0;
  private last: string | null = null;

  constructor(asOf: string) {
    this.windowStart = shiftDays(asOf.slice(0, 10), -RECENT_WINDOW_DAYS);
  }

  /** One review, by the few fields the tally reads (a caller holding reviews as bytes reads them without parsing). */
  add(rating: number, date: string, source: string, hasText: boolean, hasReply: boolean): void {
    this.n++;
    this.sum += rating;
    this.distribution[rating - 1]++;
    if (hasText) this.withText++;
    if (hasReply) this.replies++;
    let s = this.bySource.get(source);
    if (s === undefined) this.bySource.set(source, (s = { sum: 0, n: 0 }));
    s.sum += rating;
    s.n++;
    if (date > this.windowStart) {
      this.recentSum += rating;
      this.recentN++;
    }
    if (this.last === null || date > this.last) this.last = date;
  }

  result(): AggregateRating {
    const n = this.n;
    const d = this.distribution;
    return {
      rating_value: n ? round2(this.sum / n) : 0,
      review_count: this.withText,
      rating_count: n,
      best_rating: 5,
      worst_rating: 1,
      distribution: { '1': d[0], '2': d[1], '3': d[2], '4': d[3], '5': d[4] },
      reply_rate: n ? round2(this.replies / n) : 0,
      by_source: [...this.bySource.entries()]
        .map(([source, s]) => ({ source, rating_value: round2(s.sum / s.n), rating_count: s.n }))
        .sort((a, b) => b.rating_count - a.rating_count || a.source.localeCompare(b.source)),
      recent: {
        window_days: RECENT_WINDOW_DAYS,
        rating_value: this.recentN ? round2(this.recentSum / this.recentN) : null,
        rating_count: this.recentN,
      },
      last_review_date: this.last,
    };
  }
}

/** YYYY-MM-DD shifted by whole days, in UTC. */
export function shiftDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
