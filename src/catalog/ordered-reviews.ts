import type { Review, StoredReview } from '../domain/index.js';
import type { Steps } from '../threads/index.js';
import { type FoundMentions, NO_MENTIONS, toReview } from './to-review.js';

/** Published reviews newest first. */
export interface OrderedReviews {
  reviews: Review[];
  /** The reviews this build made (on an update, every other one is the previous build's object). */
  fresh: Set<Review>;
  /** Where the fresh reviews are, ascending. */
  freshPositions: Int32Array;
}

/** The contract's order: date desc, then published_at desc, then id desc (plain code-unit comparison). */
export const newestFirst = (a: Pick<Review, 'date' | 'published_at' | 'id'>, b: Pick<Review, 'date' | 'published_at' | 'id'>) =>
  a.date !== b.date
    ? a.date < b.date
      ? 1
      : -1
    : a.published_at !== b.published_at
      ? a.published_at < b.published_at
        ? 1
        : -1
      : a.id < b.id
        ? 1
        : a.id > b.id
          ? -1
          : 0;

/** Reviews for rows, made a slice at a time. `found` has the mentions of every row. */
function* reviewsOf(
  rows: Iterable<StoredReview>,
  found: ReadonlyMap<string, FoundMentions>,
  permalink: (id: string) => string,
): Steps<Review[]> {
  const out: Review[] = [];
  for (const row of rows) {
    out.push(toReview(row, found.get(row.id) ?? NO_MENTIONS, permalink));
    if (out.length % 256 === 0) yield;
  }
  return out;
}

/**
 * Every review of a full build, sorted (in place): each is fresh, so no set of them is made. Each review
 * is sorted by one string, its date, published_at, id and index joined by NUL (none of them holds one,
 * so comparing two keys compares the fields in turn, as newestFirst does, the other way round): runs are
 * sorted by the engine's own string order and merged by one `<`, not by newestFirst's three tests.
 * Returns where each review came from: its index in `made` before the sort, by its position after.
 */
export function* orderAll(made: Review[]): Steps<Int32Array> {
  const keys: string[] = new Array(made.length);
  for (let i = 0; i < made.length; i++) {
    const r = made[i];
    keys[i] = `${r.date}\0${r.published_at}\0${r.id}\0${i}`;
    if (i % 4096 === 0) yield;
  }
  yield* sortSteps(keys);
  const read = made.slice();
  const from = new Int32Array(made.length);
  for (let k = 0; k < keys.length; k++) {
    // Ascending keys: the newest review is the last.
    const key = keys[keys.length - 1 - k];
    from[k] = Number(key.slice(key.lastIndexOf('\0') + 1));
    made[k] = read[from[k]];
    if (k % 4096 === 0) yield;
  }
  return from;
}

/**
 * The previous build's order with the changed ids taken out and their current rows (if still
 * published) merged back in: unchanged reviews keep their objects and relative order, so the cost is
 * one pass without lookups in large tables, plus sorting the changed few.
 */
export function* orderUpdated(
  previous: readonly Review[],
  changes: ReadonlyMap<string, StoredReview | null>,
  found: ReadonlyMap<string, FoundMentions>,
  permalink: (id: string) => string,
): Steps<OrderedReviews> {
  const published: StoredReview[] = [];
  for (const row of changes.values()) if (row) published.push(row);
  const added = yield* sortSteps(yield* reviewsOf(published, found, permalink), newestFirst);
  let kept = previous.length;
  for (let i = 0; i < previous.length && changes.size > 0; i++) {
    if (changes.has(previous[i].id)) kept--;
    if (i % 4096 === 0) yield;
  }
  const reviews: Review[] = new Array(kept + added.length);
  const freshPositions = new Int32Array(added.length);
  let i = 0;
  let j = 0;
  let k = 0;
  const skipChanged = () => {
    while (i < previous.length && changes.has(previous[i].id)) i++;
  };
  skipChanged();
  while (i < previous.length || j < added.length) {
    if (j >= added.length || (i < previous.length && newestFirst(previous[i], added[j]) <= 0)) {
      reviews[k++] = previous[i++];
      skipChanged();
    } else {
      freshPositions[j] = k;
      reviews[k++] = added[j++];
    }
    if (k % 4096 === 0) yield;
  }
  return { reviews, fresh: yield* setOf(added), freshPositions };
}

function* setOf<T>(items: readonly T[]): Steps<Set<T>> {
  const out = new Set<T>();
  for (let i = 0; i < items.length; i++) {
    out.add(items[i]);
    if (i % 4096 === 0) yield;
  }
  return out;
}

const RUN = 1024;

/**
 * A stable merge sort that pauses between runs and during merges (Array#sort of 100k items is one ~100 ms
 * step). Without `compare`, the items are strings in code-unit order (the engine sorts each run itself).
 */
export function* sortSteps<T>(items: T[], compare?: (a: T, b: T) => number): Steps<T[]> {
  const inOrder = compare ? (a: T, b: T) => compare(a, b) <= 0 : (a: T, b: T) => a <= b;
  let src = items;
  for (let i = 0; i < src.length; i += RUN) {
    const run = src.slice(i, i + RUN).sort(compare);
    for (let k = 0; k < run.length; k++) src[i + k] = run[k];
    yield;
  }
  if (src.length <= RUN) return src;
  let dst: T[] = new Array(src.length);
  for (let width = RUN; width < src.length; width *= 2) {
    for (let lo = 0; lo < src.length; lo += 2 * width) {
      const mid = Math.min(lo + width, src.length);
      const hi = Math.min(lo + 2 * width, src.length);
      let a = lo;
      let b = mid;
      for (let k = lo; k < hi; k++) {
        // Ties take the left run first: stable, like Array#sort.
        dst[k] = a < mid && (b >= hi || inOrder(src[a], src[b])) ? src[a++] : src[b++];
        if (k % 4096 === 0) yield;
      }
    }
    [src, dst] = [dst, src];
  }
  // Sorted in place: a caller holding `items` must not keep a second order alive (at 1M reviews the
  // other array holds every review after the caller has let them go).
  if (src !== items) {
    for (let k = 0; k < src.length; k++) {
      items[k] = src[k];
      if (k % 65536 === 0) yield;
    }
  }
  return items;
}
