// Monthly series and the trend label.
//
// Trend rule: take every review dated in the 12 calendar months ending with the month of the latest review,
// fit star rating = a + b·month by ordinary least squares (one point per review, so busy months weigh
// more), and test b = 0 with a two-sided t test. The trend is "improving" when p < 0.05 and the fitted
// change across the window (b·11) is at least +0.1 stars, "declining" when p < 0.05 and it is at most
// -0.1 stars, otherwise "stable". Fewer than 10 reviews or fewer than 3 distinct months: "stable".
import type { MonthlyPoint, Trend, TrendDetail } from '../../domain/index.js';
import { round } from '../score.js';
import type { StateIn, StateOut } from './row-image.js';
import { type Accumulator, bump, mean, milliMean, type Row } from './rows.js';
import { linearRegression } from './stats.js';

export const TREND_RULE =
  'OLS slope of star rating per month over reviews in the last 12 calendar months (ending at the latest review); ' +
  'improving/declining when the two-sided t-test p < 0.05 and the fitted change over the window is at least 0.1 stars, else stable; ' +
  'stable with fewer than 10 reviews or 3 distinct months';
const WINDOW_MONTHS = 12;
const ALPHA = 0.05;
const MIN_CHANGE_STARS = 0.1;
const MIN_REVIEWS = 10;
const MIN_MONTHS = 3;

/** Months since year 0 of a YYYY-MM-DD date, read digit by digit (this runs once per review). */
function monthIndex(date: string): number {
  return (
    ((date.charCodeAt(0) - 48) * 1000 + (date.charCodeAt(1) - 48) * 100 + (date.charCodeAt(2) - 48) * 10 + date.charCodeAt(3) - 48) * 12 +
    (date.charCodeAt(5) - 48) * 10 +
    date.charCodeAt(6) -
    48 -
    1
  );
}

function monthLabel(index: number): string {
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

interface MonthAcc {
  n: number;
  rating: number;
  /** Thousandths (rows.ts milli). */
  sentiment: number;
  /** Reviews per star rating: the trend's points, so the window can move without the rows. */
  ratings: Map<number, number>;
}

/** Monthly counts, mean rating and mean sentiment, and the trend over the months of the window. */
export class TemporalAccumulator implements Accumulator {
  // Keyed by month number rather than a "YYYY-MM" substring: no string per review at 100k reviews.
  private readonly months = new Map<number, MonthAcc>();

  add(row: Row): void {
    this.count(row, 1);
  }

  remove(row: Row): void {
    this.count(row, -1);
  }

  save(out: StateOut): void {
    out.uint(this.months.size);
    for (const [month, a] of this.months) {
      out.uint(month);
      out.uint(a.n);
      out.float(a.rating);
      out.float(a.sentiment);
      out.uint(a.ratings.size);
      for (const [rating, n] of a.ratings) {
        out.float(rating);
        out.uint(n);
      }
    }
  }

  load(input: StateIn<Row>): void {
    for (let k = input.uint(); k > 0; k--) {
      const month = input.uint();
      const a: MonthAcc = { n: input.uint(), rating: input.float(), sentiment: input.float(), ratings: new Map() };
      for (let r = input.uint(); r > 0; r--) a.ratings.set(input.float(), input.uint());
      this.months.set(month, a);
    }
  }

  private count({ review, analysis }: Row, sign: 1 | -1): void {
    const month = monthIndex(review.date);
    let a = this.months.get(month);
    if (!a) {
      a = { n: 0, rating: 0, sentiment: 0, ratings: new Map() };
      this.months.set(month, a);
    }
    a.n += sign;
    a.rating += sign * review.rating;
    a.sentiment += sign * analysis.sentimentMilli;
    bump(a.ratings, review.rating, sign);
    if (a.n === 0) this.months.delete(month);
  }

  /** `latestDate`: the newest review's date, which fixes the trend window. */
  result(latestDate: string | null): { monthly: MonthlyPoint[]; trend: Trend; detail: TrendDetail } {
    const months = [...this.months].sort((x, y) => x[0] - y[0]);
    const monthly = months.map(([month, a]) => ({
      month: monthLabel(month),
      review_count: a.n,
      avg_rating: round(mean(a.rating, a.n), 2),
      sentiment_score: milliMean(a.sentiment, a.n),
    }));
    return { monthly, ...trendOf(months, latestDate === null ? null : monthIndex(latestDate)) };
  }
}

/** The trend rule over the months (ascending) of the window ending with month `end`. */
function trendOf(months: [number, MonthAcc][], end: number | null): { trend: Trend; detail: TrendDetail } {
  const detail: TrendDetail = {
    rule: TREND_RULE,
    metric: 'rating',
    window_start: null,
    window_end: null,
    n: 0,
    slope_per_month: null,
    p_value: null,
  };
  if (end === null) return { trend: 'stable', detail };
  const start = end - (WINDOW_MONTHS - 1);
  detail.window_start = monthLabel(start);
  detail.window_end = monthLabel(end);
  // One point per (month, rating), weighted by its reviews, in a fixed order: the same sums however the
  // reviews came and went.
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  let windowMonths = 0;
  for (const [month, a] of months) {
    if (month < start) continue;
    windowMonths++;
    detail.n += a.n;
    for (const [rating, n] of [...a.ratings].sort((x, y) => x[0] - y[0])) {
      xs.push(month - start);
      ys.push(rating);
      ws.push(n);
    }
  }
  if (detail.n < MIN_REVIEWS || windowMonths < MIN_MONTHS) return { trend: 'stable', detail };
  const fit = linearRegression(xs, ys, ws);
  detail.slope_per_month = round(fit.slope, 4);
  detail.p_value = fit.pValue === null ? null : round(fit.pValue, 4);
  const change = fit.slope * (WINDOW_MONTHS - 1);
  let trend: Trend = 'stable';
  if (fit.pValue !== null && fit.pValue < ALPHA && Math.abs(change) >= MIN_CHANGE_STARS) trend = change > 0 ? 'improving' : 'declining';
  return { trend, detail };
}
