// The corpus as the insight builders see it: each published review joined with its stored analysis,
// newest first (date desc; within a date the caller's order, e.g. /reviews.json's), so "first k seen" is
// "the k most recent" in every builder.
import type { CorpusAnalysis, ReviewAnalysis } from '../../domain/index.js';
import { HeldRow } from './held-row.js';
import type { Positions } from './order.js';
import type { StateIn, StateOut } from './row-image.js';

export interface CorpusReview {
  id: string;
  rating: number;
  /** YYYY-MM-DD */
  date: string;
  text: string | null;
  /** Attributed technician/service ids (explicit attribution, already including text mentions). */
  technicians: string[];
  services: string[];
  service_area: string | null;
}

/**
 * What the insight builders read of an analysis: a whole one, or the compact copy a corpus keeps between
 * revisions (held.ts compact), whose strings are shared with other rows'.
 */
export type InsightAnalysis = Pick<CorpusAnalysis, 'sentiment' | 'aspects' | 'problems' | 'phrases' | 'sentences'>;

/**
 * A row: a review with what the insights read of its analysis, one object whether a corpus keeps it
 * between revisions or buildInsights makes it for one pass (held-row.ts).
 */
export type Row = HeldRow;

/**
 * One insight builder, kept as the corpus changes: the full pass adds every row in corpus order (`at`
 * absent), a revision removes its changed rows and adds its new ones at their places (`at`).
 */
export interface Accumulator {
  add(row: Row, at?: Positions): void;
  /** Undoes add(row): the row must be held. */
  remove(row: Row): void;
  /** Writes the state into a corpus image, for load to take back in a builder made as this one was. */
  save(out: StateOut): void;
  /** Takes back what save wrote, into a builder that has added no row. */
  load(input: StateIn<Row>): void;
}

/** Analyses by review id, or a list at the same positions as the reviews. */
export type AnalysesOf = ReadonlyMap<string, ReviewAnalysis> | readonly ReviewAnalysis[];

/** The analysis of the review at each position: from a list at the same positions (no lookup in a table as large as the corpus), or by id. */
export function analysisAt(reviews: readonly CorpusReview[], analyses: AnalysesOf): (i: number) => ReviewAnalysis | undefined {
  if (!Array.isArray(analyses)) return (i) => (analyses as ReadonlyMap<string, ReviewAnalysis>).get(reviews[i].id);
  if (analyses.length !== reviews.length) throw new Error('buildInsights: analyses and reviews differ in length');
  return (i) => (analyses as readonly ReviewAnalysis[])[i];
}

export function prepareRows(
  reviews: readonly CorpusReview[],
  analyses: AnalysesOf,
  aspectIndex: ReadonlyMap<string, number>,
): readonly Row[] {
  const rows: Row[] = new Array(reviews.length);
  const at = analysisAt(reviews, analyses);
  for (let i = 0; i < reviews.length; i++) {
    const analysis = at(i);
    // Insights must be recomputable from per_review, so a review without its analysis is a caller bug.
    if (!analysis) throw new Error(`buildInsights: no analysis for review ${reviews[i].id}`);
    rows[i] = new HeldRow(reviews[i], analysis, aspectIndex, (ids) => ids, 'view');
  }
  return newestFirst(rows);
}

/** The rows newest first (date desc; equal dates keep the caller's order): these rows, or a sorted copy. */
export function newestFirst(rows: readonly Row[]): readonly Row[] {
  // Callers usually pass reviews newest first already; checking is O(n), sorting (stable) only when needed.
  for (let i = 1; i < rows.length; i++)
    if (rows[i - 1].review.date < rows[i].review.date)
      return [...rows].sort((a, b) => (a.review.date === b.review.date ? 0 : a.review.date < b.review.date ? 1 : -1));
  return rows;
}

/** The mean of a sum of thousandths (a row's sentimentMilli, an aspect's scoreMilli), to 3 decimals (round(mean, 3) without the float detour); 0 for n = 0. */
export const milliMean = (sum: number, n: number): number => (n === 0 ? 0 : Math.round(sum / n) / 1000);

/** Mean of a sum over n, or 0 for n = 0. */
export function mean(sum: number, n: number): number {
  return n === 0 ? 0 : sum / n;
}

/** Adds `by` to a count, dropping it at zero (a pass over the rows would not have the key). */
export function bump<K>(counts: Map<K, number>, key: K, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
}

/** The k most frequent keys, ties broken by key for determinism. */
export function topKeys(counts: Map<string, number>, k: number): string[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([key]) => key);
}
