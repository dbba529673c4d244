// npm run bench -- websub [--sizes 1000,10000] [--json out.json]
//
// One change fanned out to N HTTPS subscribers on loopback. The hub runs in this process (SQLite store,
// the real worker and outbound client); the subscribers run in child processes so their TLS work does
// not count against the hub. Subscribers close the connection after every answer and offer no session
// tickets: every delivery is a full new TLS handshake, as it would be to N distinct hosts.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { constants } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from '../src/store/index.js';
import { HubConfigSchema, HubWorker } from '../src/websub/index.js';
import { fakeCatalog, makePki } from '../test/websub/harness.js';
import { benchDir, fmt, table } from './lib.js';

const SERVERS_PER_CHILD = 4;
const CHILDREN = 2;
/** About the size of feed.json with the 50 newest reviews. */
const BODY_BYTES = 60 * 1024;
/** About the size of feed.json with the 50 newest reviews. */
if (process.argv[2] === '--serve-subscribers') await serveSubscribers();
else await main();

async function serveSubscribers(): Promise<void> {
  const key = readFileSync(process.argv[3]);
  const cert = readFileSync(process.argv[4]);
  const keepAlive = process.argv[5] === 'keepalive';
  const ports: number[] = [];
  for (let i = 0; i < SERVERS_PER_CHILD; i++) {
    const server = createServer({ key, cert, secureOptions: keepAlive ? 0 : constants.SSL_OP_NO_TICKET }, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204, keepAlive ? {} : { connection: 'close' }).end());
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', 1024, r));
    ports.push((server.address() as { port: number }).port);
  }
  process.send!({ ports });
}

interface Row {
  subscribers: number;
  connections: string;
  seconds: number;
  perSecond: number;
  peakRssMb: number;
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = (arg('--sizes') ?? '1000,10000').split(',').map(Number);
  const dir = benchDir();
  const pkiDir = join(dir, 'pki');
  mkdirSync(pkiDir);
  const pki = makePki(pkiDir);
  writeFileSync(join(pkiDir, 'server.key'), pki.key);
  const rows: Row[] = [];
  try {
    for (const [n, mode] of [...sizes.map((n) => [n, 'new TLS per delivery'] as const), [sizes.at(-1)!, 'keep-alive'] as const]) {
      rows.push(await run(n, mode, dir, pkiDir, pki.caFile));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nWebSub fan-out: one change → N HTTPS subscribers on loopback (Node ${process.version}, feed.json body ${fmt(BODY_BYTES / 1024)} KiB, half signed)\n`);
  table(
    ['subscribers', 'connections', 'time to all delivered (s)', 'deliveries/s', 'peak RSS of the hub process (MB)'],
    rows.map((r) => [fmt(r.subscribers), r.connections, fmt(r.seconds, 2), fmt(r.perSecond), fmt(r.peakRssMb)]),
  );
  const out = arg('--json');
  if (out) writeFileSync(out, JSON.stringify(rows, null, 2));
}

async function run(n: number, mode: 'new TLS per delivery' | 'keep-alive', dir: string, pkiDir: string, caFile: string): Promise<Row> {
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  for (let c = 0; c < CHILDREN; c++) {
    const child = fork(fileURLToPath(import.meta.url), ['--serve-subscribers', join(pkiDir, 'server.key'), join(pkiDir, 'server.pem'), mode === 'keep-alive' ? 'keepalive' : 'close'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    ports.push(...(await new Promise<{ ports: number[] }>((r) => child.once('message', (m) => r(m as { ports: number[] })))).ports);
  }
  const store = await Store.open(join(dir, `hub-${n}-${mode.length}.db`));
  try {
    const base = 'https://reviews.example';
    let catalog = fakeCatalog(1, base);
    // Seed verified subscriptions directly: this measures fan-out, not n verifications.
    const now = Date.now();
    const iso = new Date(now).toISOString();
    for (let i = 0; i < n; i += 500) {
      const batch = Array.from({ length: Math.min(500, n - i) }, (_, j) => {
        const k = i + j;
        return {
          topic: catalog.links.feedJson,
          callback: `https://127.0.0.1:${ports[k % ports.length]}/s/${k}?token=${k}`,
          secret: k % 2 === 0 ? `secret-${k}` : null,
          lease_seconds: 864_000,
          expires_at: now + 864_000_000,
          failures: 0,
          last_delivered_etag: null,
          created_at: iso,
          updated_at: iso,
        };
      });
      await store.db.insertInto('websub_subscriptions').values(batch).execute();
    }
    const config = HubConfigSchema.parse({ allowPrivateCallbacks: true, caFile, metricsLogIntervalMs: 0 });
    const reasons = new Map<string, number>();
    const note = (o: object) => {
      const r = (o as { reason?: string }).reason;
      if (r) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    };
    const silent = { info: note, warn: note, error: note, debug() {} };
    const worker = new HubWorker({ store, catalog: () => catalog, config, log: silent });
    await worker.onRevision(catalog);
    await worker.start();
    catalog = fakeCatalog(2, base, { padBytes: BODY_BYTES });
    global.gc?.();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    const t0 = performance.now();
    await worker.onRevision(catalog);
    while (worker.counters.deliveriesSucceeded + worker.counters.deliveriesFailed < n) await new Promise((r) => setTimeout(r, 5));
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (worker.counters.deliveriesFailed > 0) throw new Error(`${worker.counters.deliveriesFailed} deliveries failed: ${JSON.stringify([...reasons])}`);
    await worker.stop();
    return { subscribers: n, connections: mode, seconds, perSecond: n / seconds, peakRssMb: peak / 1024 / 1024 };
  } finally {
    await store.close();
    for (const c of children) c.kill();
  }
}
