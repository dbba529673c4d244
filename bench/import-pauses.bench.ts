// How long imports stall a running server (issue 13, item 2): the server's own event-loop delay
// histogram (/metrics) and the slowest /healthz answer seen by a client probing every 20 ms (with the
// client's own event-loop max beside it, so a stall of the bench itself is not read as the server's), during
// (a) a 100k initial import into a running server and (b) one-review imports into a server holding 100k,
// with a second client creating an MCP session every 20 ms (each a store write on the server's thread,
// which waits while the store-writer thread commits a snapshot).
// Run: npm run bench -- import-pauses [--reviews 100000] [--server-node-options "--max-semi-space-size=2"]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoBusiness } from '../src/demo/index.js';
import { Store } from '../src/store/index.js';
import { benchDir, demoFile, fmt, table } from './lib.js';
import { clientLoopDelay, cliImport, eventLoopDelay, probeServer, servedCount, waitFor } from './pauses.js';
import { revisionsLoaded, spawnServe } from './servers.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const N = Number(arg('reviews', '100000'));
const SETTLE_MS = 10_000;
const dir = benchDir();
const db = join(dir, 'bench.db');
const file = demoFile(dir, N);
{
  const store = await Store.open(db);
  await store.setBusiness(demoBusiness(), new Date().toISOString());
  await store.close();
}
// A fixed base URL: the default one names the random port, so a restart would never match its stored snapshot.
const serve = () =>
  spawnServe(db, {
    publicBaseUrl: 'https://reviews.bench.example',
    env: { REVIEWCAST_DEMO_IF_EMPTY: '0' },
    nodeOptions: arg('server-node-options', ''),
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Which path each of the server's builds took and how long it ran. */
const builds = (output: string) =>
  revisionsLoaded(output)
    .map((r) => `${fmt(r.reviews)} ${r.from} ${fmt(r.ms)} ms`)
    .join(', ');
const rows: (string | number)[][] = [];
const record = (
  label: string,
  reviews: number,
  loop: Awaited<ReturnType<typeof eventLoopDelay>>,
  probe: { slowestMs: number; probes: number; failures: number },
  writes: { slowestMs: number; probes: number; failures: number },
  clientMaxMs: number,
  secs: number,
) => {
  rows.push([
    label,
    fmt(reviews),
    fmt(loop.p50, 1),
    fmt(loop.p99, 1),
    fmt(loop.max, 1),
    `${fmt(probe.slowestMs, 1)} (${fmt(probe.probes)} probes, ${probe.failures} failed)`,
    `${fmt(writes.slowestMs, 1)} (${fmt(writes.probes)} probes, ${writes.failures} failed)`,
    fmt(clientMaxMs, 1),
    fmt(secs, 1),
  ]);
  console.error(
    `${label}: max ${fmt(loop.max, 1)} ms, p99 ${fmt(loop.p99, 1)} ms, slowest /healthz ${fmt(probe.slowestMs, 1)} ms, slowest MCP initialize ${fmt(writes.slowestMs, 1)} ms, bench client's own loop max ${fmt(clientMaxMs, 1)} ms`,
  );
};

// (a) The initial import: the server starts empty, the CLI imports (and analyses) N reviews meanwhile.
{
  const server = await serve();
  const probe = await probeServer(server.url);
  const writes = await probeServer(server.url, 'mcp-initialize');
  const client = clientLoopDelay();
  const t = performance.now();
  await cliImport(file, db);
  await waitFor(async () => (await servedCount(server.url)) === N, 600_000, `the server to serve ${N} reviews`);
  const secs = (performance.now() - t) / 1000;
  // What a build does after the swap (storing analyses and the snapshot) is part of the import's cost.
  await sleep(SETTLE_MS);
  record(
    `initial import of ${fmt(N)} into a running server (CLI import + analysis, server build)`,
    N,
    await eventLoopDelay(server.url),
    await probe.stop(),
    await writes.stop(),
    client.stop(),
    secs,
  );
  console.error(`builds: ${builds(server.output())}`);
  await server.stop();
}

// (b) One new review at a time into a server that holds N (started from the stored snapshot).
{
  const server = await serve();
  await sleep(SETTLE_MS);
  const idle = await eventLoopDelay(server.url);
  console.error(`after start and ${SETTLE_MS / 1000} s idle: max ${fmt(idle.max, 1)} ms`);
  const probe = await probeServer(server.url);
  const writes = await probeServer(server.url, 'mcp-initialize');
  const client = clientLoopDelay();
  const t = performance.now();
  for (let k = 1; k <= 3; k++) {
    const one = join(dir, `one-${k}.json`);
    writeFileSync(
      one,
      JSON.stringify([
        {
          source: 'direct',
          source_review_id: `pause-${k}`,
          author: 'Pause Check',
          rating: 4,
          date: new Date().toISOString().slice(0, 10),
          text: `Dave cleared the drain, visit ${k}.`,
        },
      ]),
    );
    await cliImport(one, db);
    await waitFor(async () => (await servedCount(server.url)) === N + k, 60_000, 'the new review');
    await sleep(SETTLE_MS / 2);
  }
  record(
    `one-review import ×3 into a server holding ${fmt(N)} (started from its snapshot)`,
    N + 3,
    await eventLoopDelay(server.url),
    await probe.stop(),
    await writes.stop(),
    client.stop(),
    (performance.now() - t) / 1000,
  );
  console.error(`builds: ${builds(server.output())}`);
  await server.stop();
}

table(
  [
    'scenario',
    'reviews',
    'event loop p50 ms',
    'p99 ms',
    'max ms',
    'slowest /healthz ms',
    'slowest MCP initialize ms',
    "bench client's loop max ms",
    'time s',
  ],
  rows,
);
