// The corpus-level numbers that the FAQ and the summary both quote, computed once so that the prose and
// the structured fields can never disagree.
import type { AspectInsight, EntityInsight, ProblemInsight, Trend, TrendDetail } from '../../domain/index.js';
import type { Row } from './rows.js';

export interface Facts {
  rows: readonly Row[];
  /** "Acme Plumbing" or a generic "this business". */
  subject: string;
  reviewCount: number;
  textCount: number;
  meanRating: number;
  /** Count of reviews per star, index 1..5. */
  stars: number[];
  positivePct: number;
  neutralPct: number;
  negativePct: number;
  aspects: AspectInsight[];
  technicians: EntityInsight[];
  services: EntityInsight[];
  areas: EntityInsight[];
  problems: ProblemInsight[];
  trend: Trend;
  trendDetail: TrendDetail;
}

/** Ids of the newest `k` rows that satisfy `test`. */
export function newestIds(rows: readonly Row[], test: (row: Row) => boolean, k: number): string[] {
  const ids: string[] = [];
  for (const row of rows) {
    if (ids.length >= k) break;
    if (test(row)) ids.push(row.review.id);
  }
  return ids;
}

export function fmtInt(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 review", "2 reviews". */
export function count(n: number, noun: string): string {
  return `${fmtInt(n)} ${noun}${n === 1 ? '' : 's'}`;
}

export function fmtRating(n: number): string {
  return n.toFixed(2);
}

export function fmtPct(n: number): string {
  return `${n.toFixed(1)}%`;
}
