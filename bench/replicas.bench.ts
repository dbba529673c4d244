// Several replicas on one PostgreSQL (issue 7): requests/s through 1, 2 and 3 replicas with a
// round-robin client, and the time to fan one change out to 10,000 subscribers with 1 vs 3 workers.
// Needs PostgreSQL: REVIEWCAST_BENCH_PG_URL, else a throwaway cluster is started from Debian's packages.
// Run: npm run bench -- replicas [--subscribers 10000] [--seconds 8]
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:https';
import autocannon from 'autocannon';
import { demoBusiness } from '../src/demo/index.js';
import { importRows } from '../src/ingest/index.js';
import { Store } from '../src/store/index.js';
import { freshPgDatabase, makePki } from '../test/helpers/index.js';
import { benchDir, fmt, table } from './lib.js';
import { spawnServe } from './servers.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SUBSCRIBERS = Number(arg('subscribers', '10000'));
const SECONDS = Number(arg('seconds', '8'));
const BASE = 'https://reviews.bench.example';
const pgRoot =
  process.env.REVIEWCAST_BENCH_PG_URL ??
  execFileSync('scripts/pg-test-cluster.sh', ['55477', `${benchDir()}/pg`])
    .toString()
    .trim();

const freshDb = async () => (await freshPgDatabase(pgRoot)).url;

const pki = makePki(benchDir());
const replicaEnv = { REVIEWCAST_HUB_ALLOW_PRIVATE_CALLBACKS: '1', REVIEWCAST_HUB_CA_FILE: pki.caFile, LOG_LEVEL: 'info' };
const startReplicas = async (db: string, n: number) => {
  const serve = () => spawnServe(db, { publicBaseUrl: BASE, env: replicaEnv });
  // The first replica migrates the database; the others start beside each other once it has.
  const first = await serve();
  const rest = await Promise.all(Array.from({ length: n - 1 }, serve));
  return [first, ...rest];
};

// Throughput through 1, 2, 3 replicas.
const throughput: (string | number)[][] = [];
{
  const db = await freshDb();
  const replicas = await startReplicas(db, 3);
  for (const n of [1, 2, 3]) {
    for (const [label, path] of [
      ['/reviews.json', '/reviews.json'],
      ['search (rating, query, since)', '/api/reviews/search?rating=5&query=leak&since=2024-01-01'],
    ] as const) {
      // autocannon spreads its connections round-robin over an array of URLs (its typings only name a string).
      const r = await autocannon({
        url: replicas.slice(0, n).map((s) => s.url + path) as unknown as string,
        connections: 48,
        duration: SECONDS,
      });
      throughput.push([n, label, fmt(r.requests.average), fmt(r.latency.p50, 1), fmt(r.latency.p99, 1)]);
      console.error(`${n} replica(s) ${label}: ${fmt(r.requests.average)} req/s`);
    }
  }
  await Promise.all(replicas.map((r) => r.stop()));
}

// Fan-out of one change to SUBSCRIBERS subscribers with 1 vs 3 workers.
const fanout: (string | number)[][] = [];
for (const workers of [1, 3]) {
  const db = await freshDb();
  let received = 0;
  let done: () => void = () => {};
  const all = new Promise<void>((r) => (done = r));
  const server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      if (req.method === 'POST' && ++received === SUBSCRIBERS) done();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', 1024, r));
  const port = (server.address() as { port: number }).port;
  const replicas = await startReplicas(db, workers);
  const store = await Store.open(db);
  const now = Date.now();
  for (let i = 0; i < SUBSCRIBERS; i += 1000) {
    await store.hubSubscriptions.activate(
      Array.from({ length: Math.min(1000, SUBSCRIBERS - i) }, (_, j) => ({
        topic: `${BASE}/api/feed.json`,
        callback: `https://127.0.0.1:${port}/s/${i + j}`,
        secret: null,
        leaseSeconds: 864_000,
      })),
      now,
    );
  }
  await store.setBusiness(demoBusiness(), new Date().toISOString());
  const t0 = performance.now();
  await importRows(
    store,
    [
      {
        index: 0,
        value: {
          source: 'direct',
          source_review_id: `fan-${workers}`,
          author: 'Fan Out',
          rating: 5,
          date: '2026-11-21',
          text: 'One change for everyone.',
        },
      },
    ],
    [],
  );
  await all;
  const secs = (performance.now() - t0) / 1000;
  fanout.push([fmt(SUBSCRIBERS), workers, `${fmt(secs, 2)} s`, fmt(SUBSCRIBERS / secs)]);
  console.error(`${workers} worker(s): ${fmt(secs, 2)} s`);
  await store.close();
  await Promise.all(replicas.map((r) => r.stop()));
  server.closeAllConnections();
  server.close();
}

console.log('Requests through N replicas (round-robin client, 48 connections, one 2-core machine):\n');
table(['replicas', 'request', 'req/s', 'p50 ms', 'p99 ms'], throughput);
console.log('\nOne change fanned out over HTTPS (keep-alive) on loopback, from revision commit to the last delivery:\n');
table(['subscribers', 'workers', 'time', 'deliveries/s'], fanout);
