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

interface RatedReview {
  rating: number;
  date: string;
  text: string | null;
  source: string;
  owner_reply: unknown;
}

/**
 * The aggregate rating of the published reviews, added one at a time (a caller can pause between
 * reviews): a pure function of them and a reference day (the data revision's date, never the wall
 * clock, so every replica renders identical bytes for one revision).
 */
export class RatingTally {
  private readonly distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
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

  add(r: RatedReview): void {
    this.n++;
    this.sum += r.rating;
    this.distribution[String(r.rating) as keyof typeof this.distribution]++;
    if (r.text != null && r.text !== '') this.withText++;
    if (r.owner_reply != null) this.replies++;
    const s = this.bySource.get(r.source) ?? { sum: 0, n: 0 };
    s.sum += r.rating;
    s.n++;
    this.bySource.set(r.source, s);
    if (r.date > this.windowStart) {
      this.recentSum += r.rating;
      this.recentN++;
    }
    if (this.last === null || r.date > this.last) this.last = r.date;
  }

  result(): AggregateRating {
    const n = this.n;
    return {
      rating_value: n ? round2(this.sum / n) : 0,
      review_count: this.withText,
      rating_count: n,
      best_rating: 5,
      worst_rating: 1,
      distribution: { ...this.distribution },
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
