import assert from 'node:assert/strict';
import { newestFirst } from '../../src/catalog/index.js';
import type { Review } from '../../src/domain/index.js';
import { importRows } from '../../src/ingest/index.js';
import type { Store } from '../../src/store/index.js';
import { waitFor } from '../helpers/index.js';

type Row = Record<string, unknown>;
const SOURCE = 'trustpilot';

/**
 * A client that mirrors the dataset the way the README says (a "now" cursor, one full read, then the
 * change feed), kept in sync through imports, an edit, a --sync removal and a late review; after each
 * step the mirror must equal /reviews.json. `urls` are replicas: every request goes to the next one.
 */
export async function mirrorScenario(store: Store, urls: string[]): Promise<void> {
  let turn = 0;
  const get = async (path: string) => {
    const res = await fetch(urls[turn++ % urls.length] + path);
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return res.json();
  };
  // Generous: a replica builds below normal priority, so beside other tests at normal priority on two
  // cores one update took 38 s here. What is checked is that every replica gets there, not how soon.
  const settled = async () => {
    const latest = (await store.latestRevision())!.id;
    let serving: unknown[] = [];
    await waitFor(
      async () => {
        serving = await Promise.all(urls.map(async (u) => (await (await fetch(`${u}/readyz`)).json()).revision));
        return serving.every((r) => r === latest);
      },
      () => `every replica to serve the latest revision, ${latest}; they serve ${JSON.stringify(serving)}`,
      120_000,
    );
  };

  // 1. A cursor for "now", then the full read: changes after it are replayed idempotently.
  let cursor: string = (await get('/api/reviews/changes?limit=1')).now_cursor;
  const mirror = new Map<string, Review>((await get('/reviews.json')).reviews.map((r: Review) => [r.id, r]));
  let pages = 0;
  let tombstones = 0;
  const sync = async () => {
    for (;;) {
      const page = await get(`/api/reviews/changes?${new URLSearchParams({ after: cursor, limit: '2' })}`);
      pages++;
      for (const change of page.changes) {
        if ('removed_at' in change) {
          tombstones++;
          mirror.delete(change.id);
        } else mirror.set(change.id, change);
      }
      if (page.next_cursor === null) {
        cursor = page.now_cursor;
        return;
      }
      cursor = page.next_cursor;
    }
  };
  const check = async (step: string) => {
    await settled();
    await sync();
    const served: Review[] = (await get('/reviews.json')).reviews;
    const mine = [...mirror.values()].sort(newestFirst);
    // Compared as ids first and then the first differing review, so a failure names it instead of printing 2,000.
    const servedIds = new Set(served.map((r) => r.id));
    assert.deepEqual(
      {
        missing: served.filter((r) => !mirror.has(r.id)).map((r) => r.id),
        extra: mine.filter((r) => !servedIds.has(r.id)).map((r) => r.id),
      },
      { missing: [], extra: [] },
      `after ${step}: the mirror has the served reviews`,
    );
    assert.deepEqual(
      mine.map((r) => r.id),
      served.map((r) => r.id),
      `after ${step}: in the same order`,
    );
    const differs = mine.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(served[i]));
    assert.deepEqual(mine[differs], served[differs], `after ${step}: the mirror equals /reviews.json`);
  };

  const row = (n: number, extra: Row = {}): Row => ({
    source: SOURCE,
    source_review_id: `mirror-${n}`,
    author: `Mirror Tester ${n}`,
    rating: 4,
    date: '2026-11-10',
    text: `Visit ${n}: the drain was cleared quickly.`,
    ...extra,
  });
  const ours: Row[] = [];
  const load = async (rows: Row[], sync = false) => {
    const report = await importRows(
      store,
      rows.map((value, index) => ({ index, value })),
      [],
      { sync },
    );
    assert.equal(report.invalid.length, 0, JSON.stringify(report.invalid));
  };

  await check('nothing happened');
  for (let n = 1; n <= 5; n++) ours.push(row(n));
  await load(ours);
  await check('an import of five reviews');
  ours[1] = row(2, { rating: 1, text: 'Visit 2: they came back and it leaks again.' });
  await load([ours[1]]);
  await check('an edit');
  const synced = ours.filter((_, i) => i !== 3);
  const removedBefore = tombstones;
  await load(synced, true);
  await check('a --sync import that drops a review');
  assert.ok(tombstones > removedBefore, 'the removal came as a tombstone');
  const lastYear = `${new Date().getUTCFullYear() - 1}-03-14`;
  await load([row(99, { date: lastYear, text: 'Imported late: a review from last spring.' })]);
  await check('a late review dated last year');
  assert.ok(
    [...mirror.values()].some((r) => r.date === lastYear),
    'the late review reached the mirror',
  );
  assert.ok(pages > 5, 'the feed was read in several pages');
}
