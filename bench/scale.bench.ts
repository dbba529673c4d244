// One business at scale, tried as a new user would (issue 16): the compiled CLI writes N demo reviews,
// imports them (with their analyses) into SQLite, and `reviewcast serve` starts, serves and takes one
// new review, beside a bare node:http server writing the same bytes in the same run.
//   npm run bench -- scale [--reviews 100000] [--seconds 8] [--keep DIR [--reuse]] [--heap MB] [--cpus N] [--memory MB]
// --cpus and --memory run reviewcast (its CLI and server) and the bare server on the first N CPUs, the
// load generator on the others, and reviewcast in a memory cgroup of MB (root): a small VPS (1 and 1024).
import { type ChildProcess, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { KeepAliveClient } from './keep-alive-client.js';
import { benchDir, distinctSearches, fmt, oneReviewFile, table } from './lib.js';
import { buildDist, corpusReleasesLogged, revisionsLoaded, spawnServe, spawnServer, takeOversLogged, untilLogged } from './servers.js';
import { SmallMachine } from './small-machine.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const N = Number(arg('reviews', '100000'));
const SECONDS = Number(arg('seconds', '8'));
const keep = arg('keep', '');
const PART = 250_000;
/** A database imported by an earlier run with the same --keep DIR: start and serve it again. */
const reuse = process.argv.includes('--reuse');
/** The server's V8 heap limit (`--max-old-space-size`), when Node's default does not hold the corpus. */
const heap = arg('heap', '');
const cpus = arg('cpus', '');
const memory = arg('memory', '');
const machine = new SmallMachine(cpus ? Number(cpus) : null, memory ? Number(memory) : null);
/** Reviewcast's processes as the small machine runs them; the bare server shares their CPUs, not their memory limit. */
const confined = (args: string[]) => machine.command(args);
const pinned = (args: string[]) => machine.command(args, false);
/** A row of what reviewcast's processes used of the memory limit since the last one (with --memory). */
const memoryRow = (phase: string) => {
  const use = machine.memoryUse();
  if (use)
    row(
      `${phase}: memory (limit ${fmt(Number(memory))} MB, page cache included)`,
      `peak ${fmt(use.peakMb)} MB, limit reached ${fmt(use.limitHits)} times, ${use.oomKills} processes killed`,
    );
  machine.mark();
};
machine.mark();
const dir = keep || benchDir();
mkdirSync(dir, { recursive: true });
const db = join(dir, 'scale.db');
const BASE_URL = 'https://reviews.bench.example';
/** How long the bench waits for the corpus thread's idle exit after the new review (`auto` keeps it up to 10 min). */
const RELEASE_WITHIN_MS = 11 * 60_000;
const rows: (string | number)[][] = [];
const row = (measure: string, value: string, baseline = '') => {
  rows.push([measure, value, baseline]);
  console.error(`${fmt(N)} ${measure}: ${value}${baseline ? ` (bare node:http: ${baseline})` : ''}`);
};

buildDist();

function cli(...args: string[]): number {
  const t = performance.now();
  const run = confined(['dist/bundle/main.js', ...args]);
  const r = spawnSync(run.file, run.args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`reviewcast ${args.join(' ')}: ${r.signal ?? `exit ${r.status}`}: ${r.stderr.slice(-2000)}`);
  return performance.now() - t;
}

const rssMb = (child: ChildProcess) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
const hwmMb = (child: ChildProcess) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
/** The process's CPU time so far (user + system, all threads), in seconds: steadier than wall time on a loaded machine. */
const cpuS = (child: ChildProcess) => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

// Servers still running when the bench ends, even by an error, are stopped with it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `reviewcast serve`, and the wall time from spawning it to /readyz answering 200. */
async function serve() {
  const t = performance.now();
  const s = await spawnServe(db, {
    compiled: true,
    publicBaseUrl: BASE_URL,
    env: { REVIEWCAST_DEMO_IF_EMPTY: '0' },
    nodeOptions: heap ? `--max-old-space-size=${heap}` : '',
    command: confined,
  });
  running.add(s.child);
  // A server that exits before it is ready or has stored its snapshot (killed for memory under --memory,
  // say) ends the bench with why; the stop at the end settles nothing still awaited.
  const exited = new Promise<never>((_, reject) =>
    s.child.once('exit', (code, signal) => {
      const killed = machine.memoryUse()?.oomKills ? `, killed for memory (--memory ${memory} MB)` : '';
      reject(new Error(`the server exited early (${signal ?? code}${killed}): ${s.output().slice(-1000)}`));
    }),
  );
  // Its log (from the spawn on: the revision is loaded before the server says it listens), for the path
  // a start took and for the snapshot it stores.
  const logged = untilLogged(s, (log) => {
    if (log.includes('catalog snapshot stored')) return true;
    if (log.includes('storing the catalog snapshot failed')) throw new Error(`storing the snapshot failed: ${log.slice(-2000)}`);
  });
  const stored = Promise.race([logged, exited]);
  stored.catch(() => {});
  while ((await fetch(`${s.url}/readyz`).catch(() => null))?.status !== 200)
    await Promise.race([new Promise((r) => setTimeout(r, 10)), exited]);
  const readyMs = performance.now() - t;
  const from = revisionsLoaded(s.output())[0]?.from ?? '?';
  return { ...s, readyMs, cpu: cpuS(s.child), hwm: hwmMb(s.child), from, stored };
}

async function load(url: string, paths: string[], connections: number) {
  let i = 0;
  const r = await autocannon({
    url,
    connections,
    duration: SECONDS,
    requests: [{ setupRequest: (req: any) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return `${fmt(r.requests.average)} req/s, p50 ${fmt(r.latency.p50, 1)} ms, p99 ${fmt(r.latency.p99, 1)} ms`;
}

/** One client, one request at a time on a kept-alive connection, for SECONDS: latency to a hundredth of a ms. */
async function oneClient(url: string, paths: string[]) {
  const client = await KeepAliveClient.open(url);
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const path = paths[i % paths.length];
    const t = performance.now();
    const status = await client.get(path);
    times.push(performance.now() - t);
    if (status !== 200) throw new Error(`${path}: ${status}`);
  }
  client.close();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return `${fmt(times.length / SECONDS)} req/s, p50 ${fmt(at(0.5), 2)} ms, p99 ${fmt(at(0.99), 2)} ms`;
}

/**
 * The NDJSON file in files of at most `per` lines. The importer streams any size of file, but holds
 * one import's rows and analyses for its one transaction (a million in one file: 3.27 GB RSS without
 * analyses), so the bench imports in parts as an operator with a small machine would.
 */
async function split(file: string, per: number): Promise<string[]> {
  if (N <= per) return [file];
  const files: string[] = [];
  let out: ReturnType<typeof createWriteStream> | null = null;
  let lines = 0;
  const closing: Promise<unknown>[] = [];
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (lines++ % per === 0) {
      if (out) closing.push(once(out.end(), 'finish'));
      files.push(`${file}.${files.length}`);
      out = createWriteStream(files[files.length - 1]);
    }
    if (!out!.write(`${line}\n`)) await once(out!, 'drain');
  }
  if (out) closing.push(once(out.end(), 'finish'));
  await Promise.all(closing);
  return files;
}

// 1. Write and import, as the README tells a new user to.
const file = join(dir, 'reviews.ndjson');
if (reuse) row('demo file and import', `skipped: --reuse of ${db}`);
else {
  await writeAndImport();
  memoryRow('demo file and import');
}

async function writeAndImport() {
  const genMs = cli('demo', '--reviews', String(N), '--out', file, '--business-out', join(dir, 'business.json'));
  row('`reviewcast demo` (streamed file)', `${fmt(genMs / 1000, 1)} s`);
  rmSync(db, { force: true });
  cli('business', 'set', join(dir, 'business.json'), '--database-url', db);
  const parts = await split(file, PART);
  let importMs = 0;
  for (const part of parts) importMs += cli('import', part, '--database-url', db);
  row(
    `\`reviewcast import\` (with analyses${parts.length > 1 ? `; ${parts.length} files of ≤ ${fmt(PART)}` : ''})`,
    `${fmt(importMs / 1000, 1)} s, ${fmt(N / (importMs / 1000))} reviews/s`,
  );
}

// 2. First start builds everything; a restart starts from the stored revision.
if (heap) row('server heap limit', `--max-old-space-size=${heap}`);
let server = await serve();
row(
  `first start (from: ${server.from}): process start → /readyz 200`,
  `${fmt(server.readyMs / 1000, 2)} s, CPU ${fmt(server.cpu, 1)} s, RSS ${fmt(rssMb(server.child))} MB (peak ${fmt(server.hwm)} MB)`,
);
// The restart is timed once the revision it built is stored, as an operator's restart would find it
// (a first start from a stored revision, --reuse, stores none).
if (server.from !== 'snapshot') {
  const storing = performance.now();
  await server.stored;
  row(
    'first start: snapshot stored (after ready)',
    `${fmt((performance.now() - storing) / 1000, 1)} s, CPU ${fmt(cpuS(server.child), 1)} s, RSS ${fmt(rssMb(server.child))} MB (peak ${fmt(hwmMb(server.child))} MB)`,
  );
}
await server.stop();
memoryRow('first start');
server = await serve();
row(
  `restart (from: ${server.from}): process start → /readyz 200`,
  `${fmt(server.readyMs / 1000, 2)} s, CPU ${fmt(server.cpu, 1)} s (peak RSS ${fmt(server.hwm)} MB)`,
);
row('RSS when ready', `${fmt(rssMb(server.child))} MB`);

// 3. The same bytes from a bare node:http server: the feed, one search, 300 of the distinct searches, and
// (after the server was loaded with them) all 20,000.
const searches = distinctSearches(20_000);
const fixed = ['/api/feed.json', '/api/reviews/search?rating=5&query=leak&since=2024-01-01', ...searches.slice(0, 300)];
const keepHeaders = [
  'etag',
  'last-modified',
  'cache-control',
  'vary',
  'link',
  'access-control-allow-origin',
  'access-control-expose-headers',
];
/**
 * A bare node:http server (bench/bare-server.ts) answering `paths` with the bytes and headers the
 * server sent for them now, kept in one file.
 */
async function bareServing(paths: string[], name: string) {
  const file = join(dir, `${name}.bodies`);
  const out = createWriteStream(file);
  const routes: Record<
    string,
    { file: string; offset: number; length: number; etag: string; type: string; headers: Record<string, string> }
  > = {};
  let offset = 0;
  for (const path of paths) {
    const res = await fetch(server.url + path, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await res.arrayBuffer());
    if (!out.write(body)) await once(out, 'drain');
    const headers = Object.fromEntries(keepHeaders.flatMap((h) => (res.headers.get(h) ? [[h, res.headers.get(h)!]] : [])));
    routes[path] = {
      file,
      offset,
      length: body.length,
      etag: res.headers.get('etag') ?? '',
      type: res.headers.get('content-type')!,
      headers,
    };
    offset += body.length;
  }
  await once(out.end(), 'finish');
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(routes));
  const bare = await spawnServer(
    ['--import', 'tsx', 'bench/bare-server.ts', join(dir, `${name}.json`)],
    {},
    /listening (http:\S+)/,
    pinned,
  );
  running.add(bare.child);
  return bare;
}
const bare = await bareServing(fixed, 'routes');

row('/api/feed.json 200, 50 connections', await load(server.url, [fixed[0]], 50), await load(bare.url, [fixed[0]], 50));
row('one search, 50 connections (memoized)', await load(server.url, [fixed[1]], 50), await load(bare.url, [fixed[1]], 50));
row('300 distinct searches, 50 connections', await load(server.url, fixed.slice(2), 50), await load(bare.url, fixed.slice(2), 50));
row('20,000 distinct searches, one client', await oneClient(server.url, searches));
await bare.stop();
const distinct = await load(server.url, searches, 50);
const afterLoad = `${fmt(rssMb(server.child))} MB (${fmt(hwmMb(server.child))} MB)`;
// The server collects its heap in full once a second passes without a request (QuietCollector).
await new Promise((r) => setTimeout(r, 5000));
const settled = `${fmt(rssMb(server.child))} MB`;
// The same 20,000 bodies, fetched after the load (so the load found none of them memoized).
const bareDistinct = await bareServing(searches, 'searches');
row('20,000 distinct searches, 50 connections', distinct, await load(bareDistinct.url, searches, 50));
await bareDistinct.stop();
row('RSS after load (peak)', afterLoad);
row('RSS 5 s after the load', settled);

// 4. One new review, imported by the CLI from another process, until a search finds it.
const word = `zephyrine${Date.now()}`;
const one = oneReviewFile(dir, word);
const searchFor = `${server.url}/api/reviews/search?query=${word}&limit=3`;
// A kept-alive connection the server closed while the import ran fails once: that is a miss, not an end.
const found = async () =>
  ((await (await fetch(searchFor).catch(() => fetch(searchFor))).json()) as { reviews: unknown[] }).reviews.length > 0;
// Only the top-level count is read: at 1M the document (800 MB) is past the longest string V8 makes.
const counted = () =>
  new Promise<number>((resolve, reject) => {
    // Read up to review_count, then the connection closed: fetch (undici) left a body it stopped reading
    // on an open connection, and the server's shutdown waited for it (its grace, since; before, 72 s).
    const req = get(`${server.url}/insights.json`, { agent: false }, (res) => {
      let head = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        head += chunk;
        const m = head.match(/"review_count":(\d+)/);
        if (m) {
          res.destroy();
          resolve(Number(m[1]));
        }
      });
      // Closed before review_count came (after it, the promise is settled and this does nothing).
      res.on('close', () => reject(new Error('/insights.json ended without a review_count')));
    });
    req.on('error', reject);
  });
if (await found()) throw new Error(`${word} is already searchable`);
const countedBefore = await counted();
const markLog = server.output().length;
const t0 = performance.now();
const importOneMs = cli('import', one, '--database-url', db);
const committed = performance.now();
const committedAt = Date.now();
let searchable = 0;
let inInsights = 0;
// Both polled from the commit (the command's end): the search finds it, and /insights.json counts it.
while (!searchable || !inInsights) {
  if (!searchable && (await found())) searchable = performance.now();
  if (!inInsights && (await counted()) > countedBefore) inInsights = performance.now();
  if (!searchable || !inInsights) await new Promise((r) => setTimeout(r, 10));
}
row(
  'one new review: `reviewcast import one.json` → found by search',
  `${fmt((searchable - t0) / 1000, 2)} s (the import command ${fmt(importOneMs / 1000, 2)} s of it)`,
);
// Most of the wait when the corpus thread has to take the served revision over: from its stored image or by parsing the bodies.
const [takeOver] = takeOversLogged(server.output().slice(markLog));
row(
  'one new review: commit → counted in `/insights.json`',
  `${fmt((inInsights - committed) / 1000, 2)} s${takeOver ? ` (the corpus thread took the revision over from its ${takeOver.from} in ${fmt(takeOver.ms / 1000, 2)} s, as logged)` : ''}`,
);
row('RSS at the end', `${fmt(rssMb(server.child))} MB`);
// The new revision is stored (its snapshot and corpus image) after it is served, and the server collects
// once that is done and it is quiet (QuietCollector.expectGarbage); the corpus thread stays until its idle exit.
await new Promise((r) => setTimeout(r, 10_000));
row('RSS 10 s after the new review', `${fmt(rssMb(server.child))} MB`);
// Then the corpus thread's idle exit (REVIEWCAST_CORPUS_IDLE; `auto` follows the take-over's time), and a second for what it gave back.
const released = await untilLogged(server, (log) => corpusReleasesLogged(log.slice(markLog))[0], RELEASE_WITHIN_MS);
if (released === undefined) row("RSS after the corpus thread's idle exit", `not released within ${fmt(RELEASE_WITHIN_MS / 1000)} s`);
else {
  // Read a second after the exit, or now if that has passed (the 10 s row came after it).
  await new Promise((r) => setTimeout(r, Math.max(0, released.at + 1000 - Date.now())));
  const s = (at: number) => fmt((at - committedAt) / 1000, 1);
  row(
    "RSS after the corpus thread's idle exit",
    `${fmt(rssMb(server.child))} MB, read ${s(Date.now())} s after the commit (the exit logged ${s(released.at)} s after it, after ${fmt(released.idleMs / 1000, 1)} s idle)`,
  );
}
await server.stop();
memoryRow('restart, load and the new review');
machine.close();

console.log(
  `\n${fmt(N)} demo reviews, SQLite, ${SECONDS} s per load row; Node ${process.version};${cpus ? ` reviewcast and the bare server on ${cpus} CPU${cpus === '1' ? '' : 's'}, the load generator on the others;` : ''} load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
);
table(['measure', 'reviewcast', 'bare node:http, same bytes'], rows);
