import type { Steps } from '../../threads/index.js';

/**
 * Where each item of a new order was in the previous one, and the runs of consecutive carried positions:
 * an update's order notes `from` as it places each item, and the render and the indexes carry by runs.
 */
export interface CarriedRuns {
  /** The previous position of each item, or -1 for a fresh one. */
  from: Int32Array;
  /** [to, from, length] triples, ascending: `length` carried items in a row at `to`, that were in a row at `from`. */
  runs: number[];
}

/** The runs of `from`: the longest stretches of items that were neighbours, in the same order, before too. */
export function* carriedRuns(from: Int32Array): Steps<CarriedRuns> {
  const runs: number[] = [];
  for (let i = 0; i < from.length; ) {
    const j = from[i];
    if (j < 0) {
      i++;
      continue;
    }
    let k = i + 1;
    while (k < from.length && from[k] === j + (k - i)) {
      k++;
      if ((k & 65535) === 0) yield;
    }
    runs.push(i, j, k - i);
    i = k;
    if (runs.length % 3072 === 0) yield;
  }
  return { from, runs };
}
