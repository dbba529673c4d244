// An update's order: the previous order with the changed reviews taken out and their current rows merged
// back in, each carried review noted with where it was (the render and the indexes carry by that).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { newestFirst, orderUpdated } from '../../src/catalog/index.js';
import type { Review, StoredReview } from '../../src/domain/index.js';
import { runAtOnce } from '../../src/threads/index.js';
import { dayArb, storedReviews } from '../helpers/index.js';

const day = dayArb('2025-01-09', 5);
const permalink = (id: string) => `https://reviews.example/r/${id}`;
const order = (
  previous: readonly Review[],
  changes: ReadonlyMap<string, StoredReview | null>,
  ids = previous.map((r) => r.id),
  positions: ReadonlyMap<string, number> | null = null,
) => runAtOnce(orderUpdated(previous, ids, positions, changes, new Map(), permalink));

/** Reviews whose reads are counted (a held review is a Proxy whose reads cost; the order reads few). */
function counted(reviews: readonly Review[]): { reviews: Review[]; reads: () => number } {
  let reads = 0;
  const wrapped = reviews.map(
    (r) =>
      new Proxy(r, {
        get: (target, key) => {
          reads++;
          return Reflect.get(target, key);
        },
      }),
  );
  return { reviews: wrapped, reads: () => reads };
}

test('an update orders as a sort of the current rows would, and notes where each carried review was', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 120 }),
      fc.integer({ min: 1, max: 1000 }),
      // Few days, so many reviews share one and the order falls to published_at and id.
      fc.array(fc.record({ pick: fc.nat(), day, gone: fc.boolean(), moves: fc.boolean() }), { maxLength: 6 }),
      fc.array(fc.record({ day, samePublished: fc.boolean() }), { maxLength: 6 }),
      // The previous catalog's positions by id, when it has them made: the same order either way.
      fc.boolean(),
      (n, seed, edits, adds, withPositions) => {
        const days = (i: number) => `2025-0${1 + (i % 3)}-1${i % 2}`;
        const rows = storedReviews(n, seed).map((r, i) => ({ ...r, date: days(i), published_at: `${days(i)}T0${i % 4}:00:00.000Z` }));
        const previous = order([], new Map(rows.map((r) => [r.id, r]))).reviews;
        const current = new Map(rows.map((r) => [r.id, r as StoredReview]));
        const changes = new Map<string, StoredReview | null>();
        for (const e of edits) {
          if (rows.length === 0) break;
          const r = rows[e.pick % rows.length];
          // An edit that moves the review, or one that keeps its date and publication time (a new row in the same place).
          const next = e.gone ? null : e.moves ? { ...r, date: e.day, published_at: `${e.day}T05:00:00.000Z` } : { ...r, text: 'edited' };
          changes.set(r.id, next);
          if (next) current.set(r.id, next);
          else current.delete(r.id);
        }
        adds.forEach((a, i) => {
          const like = rows[i % Math.max(rows.length, 1)];
          const published_at = a.samePublished && like ? like.published_at : `${a.day}T01:00:00.000Z`;
          const row: StoredReview = {
            ...(like ?? storedReviews(1, seed, 'x')[0]),
            id: `added-${i}`,
            date: like && a.samePublished ? like.date : a.day,
            published_at,
          };
          changes.set(row.id, row);
          current.set(row.id, row);
        });
        const watched = counted(previous);
        const ids = previous.map((r) => r.id);
        const got = order(watched.reviews, changes, ids, withPositions ? new Map(ids.map((id, i) => [id, i])) : null);
        // A binary search per new review, not a pass over the previous ones: at most a few fields per step.
        const added = [...changes.values()].filter(Boolean).length;
        assert.ok(watched.reads() <= added * 3 * (Math.ceil(Math.log2(previous.length + 1)) + 1), `${watched.reads()} reads`);
        const expected = [...current.values()].sort(newestFirst).map((r) => r.id);
        assert.deepEqual(got.ids, expected);
        assert.deepEqual(
          got.reviews.map((r) => r.id),
          expected,
        );
        const fresh: number[] = [];
        const pairs: string[] = [];
        got.carried.from.forEach((j, k) => {
          if (j < 0) {
            fresh.push(k);
            assert.ok(changes.has(got.ids[k]), 'only a changed review is made anew');
          } else {
            assert.equal(got.reviews[k], watched.reviews[j], 'a carried review is the previous object');
            assert.ok(!changes.has(got.ids[k]));
            pairs.push(`${k}<${j}`);
          }
        });
        assert.deepEqual([...got.freshPositions], fresh);
        const fromRuns: string[] = [];
        for (let r = 0; r < got.carried.runs.length; r += 3)
          for (let d = 0; d < got.carried.runs[r + 2]; d++) fromRuns.push(`${got.carried.runs[r] + d}<${got.carried.runs[r + 1] + d}`);
        assert.deepEqual(fromRuns, pairs);
        const runs = got.carried.runs;
        for (let r = 3; r < runs.length; r += 3)
          assert.ok(runs[r - 3] + runs[r - 1] !== runs[r] || runs[r - 2] + runs[r - 1] !== runs[r + 1], 'runs are as long as they can be');
      },
    ),
  );
});
