import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type RunningServer, seedDemo } from '../../src/app/index.js';
import { Store } from '../../src/store/index.js';
import { startTestServer, tempDir } from '../helpers/index.js';

// Issue 13: 300 distinct `since` dates cost 44 s of CPU and +317 MB at 2,000 reviews, because every
// per-URL memo was bounded in entries, not bytes. Now every memo shares one byte budget; a stream of
// distinct URLs must leave the counted bytes under it and RSS growth under a generous bound.
const BUDGET = 8 << 20;
/** Distinct URLs of each kind: 10,000 in all. */
const N = 5_000;
const CONCURRENCY = 8;

let server: RunningServer;
before(async () => {
  const db = join(tempDir(), 'memory.db');
  const store = await Store.open(db);
  await seedDemo(store, 500);
  await store.close();
  server = await startTestServer({ DATABASE_URL: db, REVIEWCAST_DEMO_IF_EMPTY: false, REVIEWCAST_MEMO_BYTES: BUDGET });
});
after(() => server?.close());

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
after(() => agent.destroy());

function send(method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { method, agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function gauges(): Promise<{ bytes: number; budget: number; entries: number; evictions: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    bytes: value('reviewcast_memo_bytes'),
    budget: value('reviewcast_memo_budget_bytes'),
    entries: value('reviewcast_memo_entries'),
    evictions: value('reviewcast_memo_evictions_total'),
  };
}

const day = (i: number) => new Date(Date.UTC(1999, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const words = ['leak', 'on time', 'price', 'drain', 'clean', 'late', 'water heater', 'friendly', 'mess', 'the'];

/** Sends `paths` CONCURRENCY at a time; checks the counted bytes against the budget every 500 requests. */
async function stream(method: string, paths: string[], peaks: number[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) {
        const i = next++;
        assert.equal(await send(method, paths[i]), 200, paths[i]);
        if (i % 500 === 0) peaks.push((await gauges()).bytes);
      }
    }),
  );
}

test(`${2 * N} distinct URLs (${N} since dates, ${N} searches) keep the memos within their byte budget`, async (t) => {
  const rssBefore = process.memoryUsage().rss;
  const peaks: number[] = [];
  // HEAD renders, memoizes and compresses exactly as GET does, without moving the bodies over loopback.
  await stream(
    'HEAD',
    Array.from({ length: N }, (_, i) => `/api/reviews/since/${day(2 * i)}`),
    peaks,
  );
  // Each search twice: a search's body is kept from its second request on.
  await stream(
    'GET',
    Array.from(
      { length: N },
      (_, i) =>
        `/api/reviews/search?query=${encodeURIComponent(words[i % words.length])}&since=${day((7 * i) % 9000)}&limit=${1 + (i % 5)}&min_rating=${1 + (i % 5)}`,
    ).flatMap((path) => [path, path]),
    peaks,
  );
  const g = await gauges();
  assert.equal(g.budget, BUDGET);
  for (const bytes of [...peaks, g.bytes]) assert.ok(bytes <= BUDGET, `counted memo bytes ${bytes} over the budget ${BUDGET}`);
  assert.ok(g.bytes > BUDGET / 2, `the memos are in use (${g.bytes} bytes)`);
  assert.ok(g.evictions > 0, 'the budget, not the key space, bounded them');
  // Generous: the budget plus the test's own client garbage and allocator slack; before, this run grew by gigabytes.
  const grown = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
  assert.ok(grown < 200, `RSS grew ${grown.toFixed(0)} MB`);
  t.diagnostic(`memo ${g.bytes} bytes, ${g.entries} entries, ${g.evictions} evictions; RSS +${grown.toFixed(0)} MB`);
});
