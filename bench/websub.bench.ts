// npm run bench -- websub [--sizes 1000,10000] [--concurrency 256] [--json out.json]
//
// One change fanned out to N HTTPS subscribers on loopback. Each scenario runs the hub in a fresh
// process (SQLite store, the real worker and outbound client), so its peak RSS is its own; the
// subscribers run in two more processes so their TLS work does not count against the hub.
// "new TLS per delivery": subscribers close the connection after every answer and offer no session
// tickets, so every delivery is a full TLS handshake, as it is to N distinct hosts. "keep-alive": the
// same N callbacks on 8 loopback origins, connections reused (many subscriptions on one host).
import { type ChildProcess, fork } from 'node:child_process';
import { constants } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from '../src/store/index.js';
import { HubConfigSchema, HubWorker } from '../src/websub/index.js';
import { fakeCatalog, makePki } from '../test/helpers/index.js';
import { benchDir, fmt, table } from './lib.js';

const SERVERS_PER_CHILD = 4;
const CHILDREN = 2;
/** About the size of feed.json with the 50 newest reviews. */
const BODY_BYTES = 60 * 1024;
const SELF = fileURLToPath(import.meta.url);

type Mode = 'new TLS per delivery' | 'keep-alive';
interface Row {
  subscribers: number;
  connections: Mode;
  seconds: number;
  perSecond: number;
  rssBeforeMb: number;
  peakRssMb: number;
  hubCpuS: number;
  subscribersCpuS: number;
}
interface HubArgs {
  n: number;
  mode: Mode;
  concurrency: number;
  ports: number[];
  caFile: string;
  dbFile: string;
}

const role = process.argv[2];
if (role === '--serve-subscribers') await serveSubscribers(process.argv[3], process.argv[4], process.argv[5] === 'keep-alive');
else if (role === '--hub') await hub(JSON.parse(process.argv[3]) as HubArgs);
else await main();

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = (arg('--sizes') ?? '1000,10000').split(',').map(Number);
  const concurrency = Number(arg('--concurrency') ?? HubConfigSchema.parse({}).concurrency);
  const dir = benchDir();
  const pkiDir = join(dir, 'pki');
  mkdirSync(pkiDir);
  const pki = makePki(pkiDir);
  const rows: Row[] = [];
  const scenarios: Array<[number, Mode]> = [
    ...sizes.map((n): [number, Mode] => [n, 'new TLS per delivery']),
    ...sizes.map((n): [number, Mode] => [n, 'keep-alive']),
  ];
  for (const [n, mode] of scenarios) rows.push(await scenario(n, mode, concurrency, dir, pkiDir, pki.caFile));
  console.log(
    `\nWebSub fan-out: one change → N HTTPS subscribers on loopback (Node ${process.version}, body ${fmt(BODY_BYTES / 1024)} KiB, half signed, concurrency ${concurrency})\n`,
  );
  table(
    [
      'subscribers',
      'connections',
      'time to all delivered (s)',
      'deliveries/s',
      'hub RSS before → peak (MB)',
      'hub CPU (s)',
      'subscribers CPU (s)',
    ],
    rows.map((r) => [
      fmt(r.subscribers),
      r.connections,
      fmt(r.seconds, 2),
      fmt(r.perSecond),
      `${fmt(r.rssBeforeMb)} → ${fmt(r.peakRssMb)}`,
      fmt(r.hubCpuS, 1),
      fmt(r.subscribersCpuS, 1),
    ]),
  );
  const out = arg('--json');
  if (out) writeFileSync(out, JSON.stringify(rows, null, 2));
}

async function scenario(n: number, mode: Mode, concurrency: number, dir: string, pkiDir: string, caFile: string): Promise<Row> {
  const children: ChildProcess[] = [];
  try {
    const ports: number[] = [];
    for (let c = 0; c < CHILDREN; c++) {
      const child = fork(SELF, ['--serve-subscribers', join(pkiDir, 'server.key'), join(pkiDir, 'server.pem'), mode], {
        execArgv: ['--import', 'tsx'],
      });
      children.push(child);
      ports.push(...(await nextMessage<{ ports: number[] }>(child)).ports);
    }
    const subscribers = [...children];
    const subscribersCpu = async () => {
      let sum = 0;
      for (const c of subscribers) {
        c.send('cpu');
        sum += (await nextMessage<{ cpuMs: number }>(c)).cpuMs;
      }
      return sum / 1000;
    };
    const hubProcess = fork(
      SELF,
      ['--hub', JSON.stringify({ n, mode, concurrency, ports, caFile, dbFile: join(dir, `hub-${n}-${mode.length}.db`) } satisfies HubArgs)],
      {
        execArgv: ['--import', 'tsx'],
      },
    );
    children.push(hubProcess);
    await nextMessage(hubProcess); // seeded and ready
    const before = await subscribersCpu();
    hubProcess.send('go');
    const result = await nextMessage<Omit<Row, 'subscribersCpuS'> | { error: string }>(hubProcess);
    if ('error' in result) throw new Error(result.error);
    return { ...result, subscribersCpuS: (await subscribersCpu()) - before };
  } finally {
    for (const c of children) c.kill();
  }
}

function nextMessage<T = unknown>(c: ChildProcess): Promise<T> {
  return new Promise<T>((resolve) => c.once('message', (m) => resolve(m as T)));
}

async function serveSubscribers(keyFile: string, certFile: string, keepAlive: boolean): Promise<void> {
  const key = readFileSync(keyFile);
  const cert = readFileSync(certFile);
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
  // Reports its CPU time, so the table shows what the subscribers cost apart from the hub.
  process.on('message', () => {
    const u = process.cpuUsage();
    process.send!({ cpuMs: (u.user + u.system) / 1000 });
  });
}

async function hub(a: HubArgs): Promise<void> {
  const store = await Store.open(a.dbFile);
  const base = 'https://reviews.example';
  let catalog = fakeCatalog(1, base);
  // Seed verified subscriptions directly: this measures the fan-out, not n verifications.
  const now = Date.now();
  for (let i = 0; i < a.n; i += 500) {
    const batch = Array.from({ length: Math.min(500, a.n - i) }, (_, j) => {
      const k = i + j;
      return {
        topic: catalog.links.feedJson,
        callback: `https://127.0.0.1:${a.ports[k % a.ports.length]}/s/${k}?token=${k}`,
        secret: k % 2 === 0 ? `secret-${k}` : null,
        leaseSeconds: 864_000,
      };
    });
    await store.hubSubscriptions.activate(batch, now);
  }
  const reasons = new Map<string, number>();
  const note = (o: object) => {
    const r = (o as { reason?: string }).reason;
    if (r) reasons.set(r, (reasons.get(r) ?? 0) + 1);
  };
  const config = HubConfigSchema.parse({
    allowPrivateCallbacks: true,
    caFile: a.caFile,
    metricsLogIntervalMs: 0,
    concurrency: a.concurrency,
  });
  const worker = new HubWorker({ store, catalog: () => catalog, config, log: { info: note, warn: note, error: note, debug() {} } });
  await worker.onRevision(catalog);
  await worker.start();
  process.send!('ready');
  await nextMessage(process as unknown as ChildProcess);

  catalog = fakeCatalog(2, base, { padBytes: BODY_BYTES });
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await worker.onRevision(catalog);
  while (worker.counters.deliveriesSucceeded + worker.counters.deliveriesFailed < a.n) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  await worker.stop();
  await store.close();
  if (worker.counters.deliveriesFailed > 0) {
    process.send!({ error: `${worker.counters.deliveriesFailed} deliveries failed: ${JSON.stringify([...reasons])}` });
    return;
  }
  process.send!({
    subscribers: a.n,
    connections: a.mode,
    seconds,
    perSecond: a.n / seconds,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: peakRss / 2 ** 20,
    hubCpuS: (cpu.user + cpu.system) / 1e6,
  } satisfies Omit<Row, 'subscribersCpuS'>);
}
