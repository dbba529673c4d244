import type { Review, StoredReview } from '../domain/index.js';
import type { Steps } from '../threads/index.js';
import { type CarriedRuns, carriedRuns } from './render/carried-runs.js';
import { type FoundMentions, NO_MENTIONS, toReview } from './to-review.js';

/** Published reviews newest first, as an update orders them. */
export interface OrderedReviews {
  reviews: Review[];
  /** Their ids, in the same order. */
  ids: string[];
  /** Where each review was in the previous order (-1: made by this build), and the runs that stayed together. */
  carried: CarriedRuns;
  /** Where the reviews this build made are, ascending. */
  freshPositions: Int32Array;
  /** Where the reviews it took out (changed or gone) were in the previous order, ascending. */
  removed: Int32Array;
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
 * published) merged back in: unchanged reviews keep their objects and relative order. The previous
 * reviews are read by their ids (`previousIds`, a plain array; `previousPositions`, their positions by
 * id, when the previous catalog has them) and a binary search per new review, so a held review is
 * read a few times in all, not once each; where each review came from is noted as it is placed, for
 * the render and the index to carry it without looking it up again.
 */
export function* orderUpdated(
  previous: readonly Review[],
  previousIds: readonly string[],
  previousPositions: ReadonlyMap<string, number> | null,
  changes: ReadonlyMap<string, StoredReview | null>,
  found: ReadonlyMap<string, FoundMentions>,
  permalink: (id: string) => string,
): Steps<OrderedReviews> {
  if (previousIds.length !== previous.length) throw new Error('orderUpdated: one id per previous review');
  const published: StoredReview[] = [];
  for (const row of changes.values()) if (row) published.push(row);
  const added = yield* sortSteps(yield* reviewsOf(published, found, permalink), newestFirst);
  const removed = yield* removedPositions(previousIds, previousPositions, changes);
  const n = previous.length - removed.length + added.length;
  const reviews: Review[] = new Array(n);
  const ids: string[] = new Array(n);
  const from = new Int32Array(n);
  const freshPositions = new Int32Array(added.length);
  let k = 0;
  let i = 0;
  let gone = 0;
  /** The previous reviews before position `end`, less the removed ones. */
  function* carry(end: number): Steps<void> {
    while (i < end) {
      const stop = gone < removed.length && removed[gone] < end ? removed[gone] : end;
      for (; i < stop; i++) {
        reviews[k] = previous[i];
        ids[k] = previousIds[i];
        from[k++] = i;
        if ((k & 16383) === 0) yield;
      }
      if (stop < end) {
        i++;
        gone++;
      }
    }
  }
  for (let j = 0; j < added.length; j++) {
    // A new review goes before the first previous one that sorts after it (a changed one it replaces
    // sorts at most equal to it, and is skipped anyway).
    yield* carry(firstAfter(previous, added[j], i));
    freshPositions[j] = k;
    reviews[k] = added[j];
    ids[k] = added[j].id;
    from[k++] = -1;
  }
  yield* carry(previous.length);
  return { reviews, ids, carried: yield* carriedRuns(from), freshPositions, removed };
}

/** The previous positions of the changed ids, ascending: looked up when the positions are at hand, else found in one pass. */
function* removedPositions(
  previousIds: readonly string[],
  previousPositions: ReadonlyMap<string, number> | null,
  changes: ReadonlyMap<string, unknown>,
): Steps<Int32Array> {
  const out: number[] = [];
  if (previousPositions) {
    let looked = 0;
    for (const id of changes.keys()) {
      const p = previousPositions.get(id);
      if (p !== undefined) {
        if (previousIds[p] !== id) throw new Error('orderUpdated: the positions are not of the previous order');
        out.push(p);
      }
      // By ids looked up, not found: new ids are not in the previous order.
      if (++looked % 4096 === 0) yield;
    }
    // A typed array sorts numerically, natively.
    return Int32Array.from(out).sort();
  }
  for (let i = 0; i < previousIds.length && changes.size > 0; i++) {
    if (changes.has(previousIds[i])) out.push(i);
    if (i % 8192 === 0) yield;
  }
  return Int32Array.from(out);
}

/** The first position at or after `lo` whose review sorts after `r` (the order is newestFirst's). */
function firstAfter(sorted: readonly Review[], r: Review, lo: number): number {
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (newestFirst(sorted[mid], r) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
