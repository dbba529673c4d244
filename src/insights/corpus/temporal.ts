// Monthly series and the trend label.
//
// Trend rule: take every review dated in the 12 calendar months ending with the month of the latest review,
// fit star rating = a + b·month by ordinary least squares (one point per review, so busy months weigh
// more), and test b = 0 with a two-sided t test. The trend is "improving" when p < 0.05 and the fitted
// change across the window (b·11) is at least +0.1 stars, "declining" when p < 0.05 and it is at most
// -0.1 stars, otherwise "stable". Fewer than 10 reviews or fewer than 3 distinct months: "stable".
import type { MonthlyPoint, Trend, TrendDetail } from '../../domain/insights.js';
import { mean, type Row } from './rows.js';
import { linearRegression } from './stats.js';
import { round } from '../score.js';

export const TREND_RULE =
  'OLS slope of star rating per month over reviews in the last 12 calendar months (ending at the latest review); ' +
  'improving/declining when the two-sided t-test p < 0.05 and the fitted change over the window is at least 0.1 stars, else stable; ' +
  'stable with fewer than 10 reviews or 3 distinct months';
const WINDOW_MONTHS = 12;
const ALPHA = 0.05;
const MIN_CHANGE_STARS = 0.1;
const MIN_REVIEWS = 10;
const MIN_MONTHS = 3;

function monthIndex(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

function monthLabel(index: number): string {
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function buildMonthly(rows: Row[]): MonthlyPoint[] {
  const acc = new Map<string, { n: number; rating: number; sentiment: number }>();
  for (const { review, analysis } of rows) {
    const month = review.date.slice(0, 7);
    const a = acc.get(month) ?? { n: 0, rating: 0, sentiment: 0 };
    a.n++;
    a.rating += review.rating;
    a.sentiment += analysis.sentiment;
    acc.set(month, a);
  }
  return [...acc]
    .sort((x, y) => (x[0] < y[0] ? -1 : 1))
    .map(([month, a]) => ({
      month,
      review_count: a.n,
      avg_rating: round(mean(a.rating, a.n), 2),
      sentiment_score: round(mean(a.sentiment, a.n), 3),
    }));
}

export function buildTrend(rows: Row[]): { trend: Trend; detail: TrendDetail } {
  const detail: TrendDetail = { rule: TREND_RULE, metric: 'rating', window_start: null, window_end: null, n: 0, slope_per_month: null, p_value: null };
  if (rows.length === 0) return { trend: 'stable', detail };
  // rows are newest first, so the first row holds the latest date.
  const end = monthIndex(rows[0].review.date);
  const start = end - (WINDOW_MONTHS - 1);
  const xs: number[] = [];
  const ys: number[] = [];
  const months = new Set<number>();
  for (const { review } of rows) {
    const m = monthIndex(review.date);
    if (m < start) break;
    xs.push(m - start);
    ys.push(review.rating);
    months.add(m);
  }
  detail.window_start = monthLabel(start);
  detail.window_end = monthLabel(end);
  detail.n = xs.length;
  if (xs.length < MIN_REVIEWS || months.size < MIN_MONTHS) return { trend: 'stable', detail };
  const fit = linearRegression(xs, ys);
  detail.slope_per_month = round(fit.slope, 4);
  detail.p_value = fit.pValue === null ? null : round(fit.pValue, 4);
  const change = fit.slope * (WINDOW_MONTHS - 1);
  let trend: Trend = 'stable';
  if (fit.pValue !== null && fit.pValue < ALPHA && Math.abs(change) >= MIN_CHANGE_STARS) trend = change > 0 ? 'improving' : 'declining';
  return { trend, detail };
}
