import type { Steps } from '../threads/index.js';

/** Where each item of a new order was in the previous one, and the runs of consecutive carried positions. */
export interface CarriedRuns {
  /** The previous position of each item, or -1 for a fresh one. */
  from: Int32Array;
  /** [to, from, length] triples: `length` carried items in a row at `to`, that were in a row at `from`. */
  runs: number[];
}

/**
 * Pairs the carried items of `items` with their previous positions. Carried items are the same
 * objects in the same relative order, so one walk over both lists pairs them up.
 */
export function* carriedRuns<T>(items: readonly T[], previous: readonly T[], fresh: ReadonlySet<unknown>): Steps<CarriedRuns> {
  const from = new Int32Array(items.length);
  const runs: number[] = [];
  let j = 0;
  for (let i = 0; i < items.length; i++) {
    if (fresh.has(items[i])) {
      from[i] = -1;
      continue;
    }
    while (j < previous.length && previous[j] !== items[i]) j++;
    if (j === previous.length) throw new Error('a carried item is not in the previous revision');
    from[i] = j;
    const last = runs.length - 3;
    if (last >= 0 && runs[last] + runs[last + 2] === i && runs[last + 1] + runs[last + 2] === j) runs[last + 2]++;
    else runs.push(i, j, 1);
    j++;
    if (i % 8192 === 0) yield;
  }
  return { from, runs };
}
