// Where a real server process's memory is (issue 16), per thread, when ready and after a load like the
// scale bench's: the compiled `reviewcast serve` on a copy of a large database (the bench writes to it:
// the first start stores its snapshot), then after one new review (the corpus thread holding the next
// revision), with bench/memory-probe.mjs preloaded to answer over IPC.
//   npm run bench -- scale-memory-process --database-url COPY.db [--restart-only]
//     [--heap-snapshot DIR] [--malloc] [--checkout DIR] [--env 'NAME=VALUE …']
// --restart-only skips the first start (the copy already holds a stored snapshot); --heap-snapshot
// writes and summarises the threads' heap snapshots after the load and after the one new review (a step's
// figures are read before its snapshots are written, but the memory writing one took stays with the allocator:
// RSS in the steps after a snapshot reads hundreds of MB higher than in a run without); --malloc asks
// glibc (through gdb) for its arenas' totals and what malloc_trim(0) gives back, after the load;
// --checkout serves another checkout's build (a baseline: e.g. `git archive` of a commit, with node_modules);
// --env sets variables for the server (e.g. NODE_OPTIONS=--max-semi-space-size=4, MALLOC_ARENA_MAX=2).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { summariseHeap } from './heap-summary.js';
import { benchDir, distinctSearches, fmt, oneReviewFile, table } from './lib.js';
import { buildDist } from './servers.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const db = arg('database-url', '');
if (!db) throw new Error('--database-url COPY.db (a copy: the first start stores a snapshot in it)');
const snapshotDir = arg('heap-snapshot', '');
const BASE_URL = 'https://reviews.bench.example';
const probe = new URL('./memory-probe.mjs', import.meta.url).pathname;
const checkout = arg('checkout', process.cwd());
const extraEnv = Object.fromEntries(
  arg('env', '')
    .split(' ')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);

buildDist(checkout);

interface Usage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}
interface Report {
  status: Record<string, number>;
  mappings: Record<string, number>;
  main: { mu: Usage };
  workers: { url: string; mu?: Usage; snapshot?: string; error?: unknown }[];
  threads: { comm: string; cpu: number }[];
  snapshot?: string;
}

interface Server {
  child: ChildProcess;
  url: string;
  log: () => string;
  measure(opts: { collect: boolean; snapshot?: string }): Promise<Report>;
  stop(): Promise<void>;
}

async function serve(): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      probe,
      'dist/bundle/main.js',
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--database-url',
      db,
      '--public-base-url',
      BASE_URL,
    ],
    {
      cwd: checkout,
      env: { ...process.env, LOG_LEVEL: 'info', REVIEWCAST_DEMO_IF_EMPTY: '0', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d));
  child.stderr!.on('data', (d: Buffer) => (log += d));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /"url":"(http:[^"]+)".*reviewcast listening/.exec(log);
      if (m) {
        clearInterval(t);
        resolve(m[1]);
      }
    }, 50);
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${log.slice(-2000)}`)));
  });
  while ((await fetch(`${url}/readyz`).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 20));
  let next = 0;
  return {
    child,
    url,
    log: () => log,
    measure: (opts) =>
      new Promise((resolve, reject) => {
        const id = next++;
        const on = (m: { t: string; id: number; report?: Report; error?: string }) => {
          if (m.t !== 'measured' || m.id !== id) return;
          child.off('message', on);
          if (m.report) resolve(m.report);
          else reject(new Error(m.error));
        };
        child.on('message', on);
        child.send({ t: 'measure', id, ...opts });
      }),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const until = async (cond: () => boolean, what: string, ms = 30 * 60_000) => {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const mb = (bytes: number) => fmt(bytes / 2 ** 20, 1);
const kbMb = (kb: number | undefined) => fmt((kb ?? Number.NaN) / 1024, 1);
const workerName = (url: string) => url.replace(/^.*\//, '').replace(/\.js$/, '');

const columns: { name: string; report: Report }[] = [];
const mallocRows: (string | number)[][] = [];
const summaries: string[] = [];

async function take(server: Server, name: string, collect: boolean, snapshotName?: string) {
  const snapshot = snapshotDir && snapshotName ? join(snapshotDir, `${snapshotName}.heapsnapshot`) : undefined;
  const report = await server.measure({ collect, snapshot });
  columns.push({ name, report });
  console.error(`${name}: VmRSS ${kbMb(report.status.VmRSS)} MB`);
  if (report.snapshot) summaries.push(`### ${name}: main thread\n\n${summariseHeap(report.snapshot, { minMb: 1 })}`);
  for (const w of report.workers)
    if (w.snapshot) summaries.push(`### ${name}: ${workerName(w.url)}\n\n${summariseHeap(w.snapshot, { minMb: 1 })}`);
}

/** glibc's own totals (malloc_stats, written to the server's stderr) and VmRSS before and after malloc_trim(0). */
async function mallocStats(server: Server, name: string) {
  const pid = String(server.child.pid);
  const before = server.log().length;
  const rssBefore = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  const gdb = spawnSync('gdb', ['-p', pid, '-batch', '-ex', 'call (void) malloc_stats()', '-ex', 'call (int) malloc_trim(0)'], {
    encoding: 'utf8',
  });
  if (gdb.status !== 0) {
    mallocRows.push([name, `gdb failed: ${gdb.stderr.slice(-300)}`, '', '']);
    return;
  }
  const rssAfter = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  // What malloc_stats wrote to the server's stderr arrives through the pipe after gdb is done.
  await until(() => /max mmap bytes/.test(server.log().slice(before)), 'malloc_stats output', 10_000).catch(() => {});
  const text = server.log().slice(before);
  const arenas = (text.match(/^Arena \d+:/gm) ?? []).length;
  const total = /Total \(incl\. mmap\):\s*\n\s*system bytes\s*=\s*(\d+)\s*\n\s*in use bytes\s*=\s*(\d+)/.exec(text);
  mallocRows.push([
    name,
    `${arenas} arenas; system ${total ? mb(Number(total[1])) : '?'} MB, in use ${total ? mb(Number(total[2])) : '?'} MB`,
    `${kbMb(rssBefore)} → ${kbMb(rssAfter)} MB`,
  ]);
}

async function load(server: Server) {
  for (const path of ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'])
    for (const coding of ['br', 'gzip', 'identity'])
      await (await fetch(server.url + path, { headers: { 'accept-encoding': coding } })).arrayBuffer();
  const searches = distinctSearches(20_000);
  let i = 0;
  // A number of requests, not a time: what is held after the load must not depend on how busy the machine was.
  for (const [paths, amount] of [
    [['/api/feed.json'], 5_000],
    [searches, searches.length],
  ] as const) {
    const r = await autocannon({
      url: server.url,
      connections: 50,
      amount,
      requests: [{ setupRequest: (req: object) => ({ ...req, path: paths[i++ % paths.length] }) }],
    });
    if (r.non2xx || r.errors) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  }
}

/**
 * One review imported by the CLI from another process, until a search finds it: the corpus thread takes
 * the served revision over (from its stored image) and builds the next one, and is measured while it holds it.
 */
async function oneNewReview(server: Server) {
  const word = `zephyrine${Date.now()}`;
  const file = oneReviewFile(benchDir(), word);
  const r = spawnSync(process.execPath, ['dist/bundle/main.js', 'import', file, '--database-url', db], { cwd: checkout, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`reviewcast import: ${r.stderr.slice(-2000)}`);
  const search = `${server.url}/api/reviews/search?query=${word}`;
  const end = performance.now() + 10 * 60_000;
  while (!(await (await fetch(search)).text()).includes(word)) {
    if (performance.now() > end) throw new Error('the new review was not found in 10 minutes');
    await new Promise((r) => setTimeout(r, 50));
  }
}

if (!process.argv.includes('--restart-only')) {
  const first = await serve();
  await take(first, 'first start: ready', false);
  await until(() => first.log().includes('catalog snapshot stored'), 'the first start to store its snapshot');
  await take(first, 'first start: snapshot stored', false);
  await first.stop();
}
const server = await serve();
await take(server, 'restart: ready', false);
// The corpus thread takes the loaded revision over after the swap.
await new Promise((r) => setTimeout(r, 15_000));
await take(server, 'restart: ready + 15 s, collected', true);
// A server that lets its idle corpus thread go (REVIEWCAST_CORPUS_IDLE) says so in its log.
const released = await until(() => server.log().includes('corpus thread released (idle)'), 'the idle corpus thread to exit', 180_000).then(
  () => true,
  () => false,
);
if (released) await take(server, 'corpus thread released (idle), collected', true);
await load(server);
await take(server, 'after load', false);
await take(server, 'after load, collected', true, 'loaded');
if (process.argv.includes('--malloc')) await mallocStats(server, 'after load, collected');
await oneNewReview(server);
await new Promise((r) => setTimeout(r, 15_000));
await take(server, 'one new review + 15 s', false);
await take(server, 'one new review + 15 s, collected', true, 'updated');
const threadCpu = columns[columns.length - 1].report.threads;
await server.stop();

const rowOf = (label: string, f: (r: Report) => string) => [label, ...columns.map((c) => f(c.report))];
const workerUrls = [...new Set(columns.flatMap((c) => c.report.workers.map((w) => workerName(w.url))))];
const rows = [
  rowOf('VmRSS', (r) => kbMb(r.status.VmRSS)),
  rowOf('RssAnon / RssFile / RssShmem', (r) => `${kbMb(r.status.RssAnon)} / ${kbMb(r.status.RssFile)} / ${kbMb(r.status.RssShmem)}`),
  rowOf('VmHWM', (r) => kbMb(r.status.VmHWM)),
  rowOf('threads', (r) => String(r.status.Threads)),
  rowOf('main: heap used / total', (r) => `${mb(r.main.mu.heapUsed)} / ${mb(r.main.mu.heapTotal)}`),
  rowOf('main: external / of it array buffers', (r) => `${mb(r.main.mu.external)} / ${mb(r.main.mu.arrayBuffers)}`),
  ...workerUrls.map((w) =>
    rowOf(`${w}: heap used / total; external`, (r) => {
      const u = r.workers.find((x) => workerName(x.url) === w)?.mu;
      return u ? `${mb(u.heapUsed)} / ${mb(u.heapTotal)}; ${mb(u.external)}` : '–';
    }),
  ),
  rowOf('mapped: [heap] (main arena) / anonymous / code and libraries', (r) =>
    [r.mappings['[heap]'], r.mappings.anonymous, r.mappings['code and libraries']].map(kbMb).join(' / '),
  ),
];
console.log(
  `\n${checkout}, ${db}, ${JSON.stringify(extraEnv)}; Node ${process.version}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
);
table(['MB', ...columns.map((c) => c.name)], rows);
if (mallocRows.length) {
  console.log('');
  table(['glibc malloc', 'malloc_stats', 'VmRSS before → after malloc_trim(0)'], mallocRows);
}
console.log(`\nCPU seconds by thread at the end: ${threadCpu.map((t) => `${t.comm} ${fmt(t.cpu, 1)}`).join(', ')}`);
for (const s of summaries) console.log(`\n${s}`);
