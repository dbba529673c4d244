import { type CarriedRuns, carriedRuns, type SplicedJson } from '../../src/catalog/index.js';
import { runAtOnce } from '../../src/threads/index.js';

/**
 * Where each of `items` was in `previous` (-1: one of `fresh`), found by identity: what an update's
 * order notes for its render and indexes, for tests that make their own revisions.
 */
export function carriedFrom<T>(items: readonly T[], previous: readonly T[], fresh: ReadonlySet<unknown>): CarriedRuns {
  const at = new Map(previous.map((v, i) => [v, i]));
  return runAtOnce(carriedRuns(Int32Array.from(items, (v) => (fresh.has(v) ? -1 : (at.get(v) ?? -1)))));
}

/** The same for a render's items, by their keys in the previous render. */
export function carriedByKey(
  keys: readonly string[],
  values: readonly unknown[],
  previous: SplicedJson,
  fresh: ReadonlySet<unknown>,
): CarriedRuns {
  const at = new Map(previous.keys.map((k, i) => [k, i]));
  return runAtOnce(carriedRuns(Int32Array.from(keys, (k, i) => (fresh.has(values[i]) ? -1 : (at.get(k) ?? -1)))));
}
