// Soak (issue 13): mixed traffic at 100 connections against 100,000 reviews for 10 minutes, with an
// import every 30 s (10 new reviews and 5 edited ones, through the CLI, analyses included): errors,
// latency, the server's RSS over time and its longest event-loop pause. Not part of CI.
// Run: npm run bench -- soak [--minutes 10] [--reviews 100000] [--connections 100]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { analyseReviews } from '../src/catalog/index.js';
import { demoBusiness, generateDemoReviews } from '../src/demo/index.js';
import { importFile } from '../src/ingest/index.js';
import { engine } from '../src/insights/index.js';
import { Store } from '../src/store/index.js';
import { benchDir, demoFile, fmt, table } from './lib.js';
import { cliImport, eventLoopDelay, servedCount, waitFor } from './pauses.js';
import { spawnServe } from './servers.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const MINUTES = Number(arg('minutes', '10'));
const N = Number(arg('reviews', '100000'));
const CONNECTIONS = Number(arg('connections', '100'));
const IMPORT_EVERY_MS = 30_000;
const SAMPLE_EVERY_MS = 5_000;

const dir = benchDir();
const db = join(dir, 'soak.db');
{
  const store = await Store.open(db);
  await store.setBusiness(demoBusiness(), new Date().toISOString());
  const t = performance.now();
  const report = await importFile(store, demoFile(dir, N), { analyze: analyseReviews(engine) });
  console.error(`imported ${fmt(report.added)} reviews with their analyses in ${fmt((performance.now() - t) / 1000, 1)} s`);
  await store.close();
}

const server = await spawnServe(db, { env: { REVIEWCAST_DEMO_IF_EMPTY: '0' } });
const rssMb = () => Number(readFileSync(`/proc/${server.child.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0) / 1024;
// Let it store its first snapshot before the clock starts.
await new Promise((r) => setTimeout(r, 15_000));
const atStart = await eventLoopDelay(server.url);
console.error(`ready; event loop since ready: max ${fmt(atStart.max, 1)} ms; RSS ${fmt(rssMb())} MB`);

// A page of reviews to pick permalinks and dates from.
const sample = ((await (await fetch(`${server.url}/api/reviews/search?limit=100`)).json()) as { reviews: { id: string; date: string }[] })
  .reviews;
const paths = [
  '/healthz',
  '/api/feed.json',
  '/feed.xml',
  '/api/reviews/search?rating=5&query=leak&since=2024-01-01',
  '/api/reviews/search?min_rating=2&mentions_technician=mike&limit=20',
  '/api/reviews/search?query=water%20heater&limit=50',
  `/api/reviews/since/${sample[10].date}`,
  '/',
  '/?min_rating=4&query=drain',
  ...sample.slice(0, 20).map((r) => `/reviews/${r.id}`),
  '/llms.txt',
  '/openapi.json',
  '/readyz',
  '/metrics',
];
// Conditional requests for the two large datasets: `*` matches whatever revision is current (304).
const conditional = new Set(['/reviews.json', '/insights.json']);
paths.push('/reviews.json', '/insights.json');
let next = 0;

// Imports every 30 s, each through the CLI as an operator runs it; how long until the server serves it.
const imports: { added: number; visibleMs: number }[] = [];
let importing = true;
const importer = (async () => {
  let round = 0;
  const edits = generateDemoReviews({ reviews: N }).slice(0, 5);
  while (importing) {
    await new Promise((r) => setTimeout(r, IMPORT_EVERY_MS));
    if (!importing) break;
    round++;
    const file = join(dir, `round-${round}.json`);
    const today = new Date().toISOString().slice(0, 10);
    const fresh = Array.from({ length: 10 }, (_, i) => ({
      source: 'direct',
      source_review_id: `soak-${round}-${i}`,
      author: `Soak ${round}.${i}`,
      rating: 1 + ((round + i) % 5),
      date: today,
      text: `Visit ${round}.${i}: Dave cleared the drain and explained the fix.`,
    }));
    writeFileSync(file, JSON.stringify([...fresh, ...edits.map((e) => ({ ...e, text: `${e.text ?? ''} (update ${round})` }))]));
    const before = await servedCount(server.url);
    await cliImport(file, db);
    const committed = performance.now();
    await waitFor(async () => (await servedCount(server.url)) >= before + 10, 120_000, 'an import to be served');
    imports.push({ added: 10, visibleMs: performance.now() - committed });
  }
})();

const samples: { minute: number; rssMb: number; loopMaxMs: number; loopP99Ms: number }[] = [];
const started = performance.now();
const sampler = setInterval(() => {
  void eventLoopDelay(server.url).then((loop) =>
    samples.push({ minute: (performance.now() - started) / 60_000, rssMb: rssMb(), loopMaxMs: loop.max, loopP99Ms: loop.p99 }),
  );
}, SAMPLE_EVERY_MS);

const result = await autocannon({
  url: server.url,
  connections: CONNECTIONS,
  duration: MINUTES * 60,
  timeout: 30,
  requests: [
    {
      setupRequest: (req: any) => {
        const path = paths[next++ % paths.length];
        return {
          ...req,
          path,
          headers: { ...req.headers, 'accept-encoding': 'gzip, br', ...(conditional.has(path) ? { 'if-none-match': '*' } : {}) },
        };
      },
    },
  ],
});
clearInterval(sampler);
importing = false;
await importer;
const loop = await eventLoopDelay(server.url);
const finalRss = rssMb();
await server.stop();

const status = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
const byClass = (c: string) =>
  Object.entries(status)
    .filter(([code]) => code.startsWith(c))
    .reduce((n, [, s]) => n + s.count, 0);
const visible = imports.map((i) => i.visibleMs).sort((a, b) => a - b);
console.log(
  `\n${MINUTES} min, ${fmt(N)} reviews, ${CONNECTIONS} connections, ${imports.length} imports (10 new + 5 edited reviews each, every ${IMPORT_EVERY_MS / 1000} s)\n`,
);
table(
  ['requests', 'req/s', '2xx', '304', '4xx', '5xx', 'socket errors', 'timeouts', 'p50 ms', 'p99 ms', 'max ms'],
  [
    [
      fmt(result.requests.total),
      fmt(result.requests.average),
      fmt(byClass('2')),
      fmt(status['304']?.count ?? 0),
      fmt(byClass('4')),
      fmt(byClass('5')),
      fmt(result.errors),
      fmt(result.timeouts),
      fmt(result.latency.p50, 1),
      fmt(result.latency.p99, 1),
      fmt(result.latency.max, 1),
    ],
  ],
);
console.log('');
table(
  [
    'event loop since ready: p50 ms',
    'p99 ms',
    'max ms',
    'RSS min MB',
    'RSS max MB',
    'RSS at end MB',
    'import → served, median s',
    'slowest s',
  ],
  [
    [
      fmt(loop.p50, 1),
      fmt(loop.p99, 1),
      fmt(loop.max, 1),
      fmt(Math.min(...samples.map((s) => s.rssMb))),
      fmt(Math.max(...samples.map((s) => s.rssMb), finalRss)),
      fmt(finalRss),
      visible.length ? fmt(visible[Math.floor(visible.length / 2)] / 1000, 2) : '–',
      visible.length ? fmt(visible[visible.length - 1] / 1000, 2) : '–',
    ],
  ],
);
console.log('');
// RSS and the longest pause so far, once a minute.
const perMinute = samples.filter((s, i) => i === samples.length - 1 || Math.floor(s.minute) !== Math.floor(samples[i + 1].minute));
table(
  ['minute', 'RSS MB', 'event loop max so far ms', 'p99 so far ms'],
  perMinute.map((s) => [fmt(s.minute, 1), fmt(s.rssMb), fmt(s.loopMaxMs, 1), fmt(s.loopP99Ms, 1)]),
);
