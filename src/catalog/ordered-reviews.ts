import type { Review } from '../domain/index.js';
import type { ReviewAnalysis } from '../domain/insights.js';
import type { ReviewTable } from '../store/index.js';
import { toReview } from './to-review.js';

/** Published reviews newest first, each with its analysis at the same position. */
export interface OrderedReviews {
  reviews: Review[];
  analyses: ReviewAnalysis[];
  /** On an update, the reviews and analyses this build made (the rest are the previous build's objects). */
  fresh: Set<unknown>;
}

/** The contract's order: date desc, then published_at desc, then id desc (plain code-unit comparison). */
const newestFirst = (a: Review, b: Review) =>
  a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.published_at !== b.published_at ? (a.published_at < b.published_at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

/** Every row as a review, sorted. `analyses` has one for every row. */
export function orderAll(rows: ReadonlyMap<string, ReviewTable>, analyses: ReadonlyMap<string, ReviewAnalysis>, permalink: (id: string) => string): OrderedReviews {
  const reviews: Review[] = [];
  for (const row of rows.values()) reviews.push(toReview(row, analyses.get(row.id)!, permalink));
  reviews.sort(newestFirst);
  return { reviews, analyses: reviews.map((r) => analyses.get(r.id)!), fresh: new Set() };
}

/**
 * The previous build's order with the changed ids taken out and their current rows (if still
 * published) merged back in: unchanged reviews keep their objects and relative order, so the cost is
 * one pass without lookups in large tables, plus sorting the changed few.
 */
export function orderUpdated(
  previous: { reviews: readonly Review[]; analyses: readonly ReviewAnalysis[] },
  changes: ReadonlyMap<string, ReviewTable | null>,
  analyses: ReadonlyMap<string, ReviewAnalysis>,
  permalink: (id: string) => string,
): OrderedReviews {
  const added: Review[] = [];
  for (const row of changes.values()) if (row) added.push(toReview(row, analyses.get(row.id)!, permalink));
  added.sort(newestFirst);
  const total = previous.reviews.length - countIn(previous.reviews, changes) + added.length;
  const reviews: Review[] = new Array(total);
  const list: ReviewAnalysis[] = new Array(total);
  const fresh = new Set<unknown>();
  let i = 0;
  let j = 0;
  let k = 0;
  const skipChanged = () => {
    while (i < previous.reviews.length && changes.has(previous.reviews[i].id)) i++;
  };
  skipChanged();
  while (i < previous.reviews.length || j < added.length) {
    if (j >= added.length || (i < previous.reviews.length && newestFirst(previous.reviews[i], added[j]) <= 0)) {
      reviews[k] = previous.reviews[i];
      list[k++] = previous.analyses[i++];
      skipChanged();
    } else {
      const r = added[j++];
      const a = analyses.get(r.id)!;
      reviews[k] = r;
      list[k++] = a;
      fresh.add(r).add(a);
    }
  }
  return { reviews, analyses: list, fresh };
}

function countIn(reviews: readonly Review[], ids: ReadonlyMap<string, unknown>): number {
  if (ids.size === 0) return 0;
  let n = 0;
  for (const r of reviews) if (ids.has(r.id)) n++;
  return n;
}
