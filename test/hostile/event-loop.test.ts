// A running server keeps answering while imports land: its own event-loop delay histogram (/metrics)
// stays under a bound through a 20,000-review initial import and a one-review import on top of it.
// (The 100k figures are measured by `npm run bench -- import-pauses`.)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { RunningServer } from '../../src/app/index.js';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { Store } from '../../src/store/index.js';
import { startTestServer, tempDir } from '../helpers/index.js';

const REVIEWS = 20_000;
/**
 * Bounds on the server's histogram (values include its 10 ms sampling interval). The max is what
 * catches a build on the event loop (before issue 13 a 20k import stalled it for seconds); the p99
 * bound leaves room for a busy CI machine, where a thread waits for a core now and then.
 */
const P99_MS = 200;
const MAX_MS = 1_000;

const run = promisify(execFile);
const dir = tempDir();
const db = join(dir, 'loop.db');
let server: RunningServer;

before(async () => {
  const store = await Store.open(db);
  await store.setBusiness(demoBusiness(), new Date().toISOString());
  await store.close();
  server = await startTestServer({ DATABASE_URL: db, REVIEWCAST_DEMO_IF_EMPTY: false });
});
after(() => server?.close());

/** The summary /metrics reports, in milliseconds. */
async function loopDelay(): Promise<{ p50: number; p99: number; max: number; count: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const value = (name: string) => {
    const m = text.match(new RegExp(`^${name.replace(/[{}".]/g, '\\$&')} (\\S+)$`, 'm'));
    assert.ok(m, `/metrics has ${name}`);
    return Number(m[1]);
  };
  assert.match(text, /^# TYPE reviewcast_event_loop_delay_seconds summary$/m);
  return {
    p50: value('reviewcast_event_loop_delay_seconds{quantile="0.5"}') * 1000,
    p99: value('reviewcast_event_loop_delay_seconds{quantile="0.99"}') * 1000,
    max: value('reviewcast_event_loop_delay_max_seconds') * 1000,
    count: value('reviewcast_event_loop_delay_seconds_count'),
  };
}

const served = async () => ((await (await fetch(`${server.url}/readyz`)).json()) as { reviews: number }).reviews;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cliImport = (file: string) => run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', file, '--database-url', db]);

test(`a ${REVIEWS.toLocaleString('en-US')}-review import and a one-review import keep the event loop's p99 under ${P99_MS} ms and its max under ${MAX_MS} ms`, async (t) => {
  const file = join(dir, 'many.ndjson');
  writeFileSync(
    file,
    generateDemoReviews({ reviews: REVIEWS, seed: 99 })
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  const one = join(dir, 'one.json');
  writeFileSync(
    one,
    JSON.stringify([
      { source: 'direct', source_review_id: 'loop-1', author: 'Loop', rating: 4, date: '2025-06-01', text: 'Dave cleared the drain.' },
    ]),
  );
  // Requests keep coming meanwhile, so the server is serving while it builds.
  let answered = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const r = await fetch(`${server.url}/api/reviews/search?query=drain&limit=5`);
      assert.equal(r.status, 200);
      await r.arrayBuffer();
      answered++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();

  await cliImport(file);
  await until(async () => (await served()) === REVIEWS, `${REVIEWS} reviews served`);
  await cliImport(one);
  await until(async () => (await served()) === REVIEWS + 1, 'the one new review served');
  // What a build does after the swap (storing analyses and the snapshot) counts too.
  await new Promise((r) => setTimeout(r, 2_000));
  polling = false;
  await poller;

  const loop = await loopDelay();
  t.diagnostic(
    `event loop: p50 ${loop.p50.toFixed(1)} ms, p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms over ${loop.count} samples; ${answered} searches answered meanwhile`,
  );
  assert.ok(loop.count > 100, 'the histogram sampled the whole time');
  assert.ok(answered > 20, 'requests were answered during the imports');
  assert.ok(loop.p99 <= P99_MS, `p99 ${loop.p99.toFixed(1)} ms ≤ ${P99_MS} ms`);
  assert.ok(loop.max <= MAX_MS, `max ${loop.max.toFixed(1)} ms ≤ ${MAX_MS} ms`);
  assert.equal(
    ((await (await fetch(`${server.url}/insights.json`)).json()) as { review_count: number }).review_count,
    REVIEWS + 1,
    'the insights follow',
  );
});
