// REST throughput and latency beside (a) a bare node:http server writing the same bytes and (b)
// json-server on the same data (issue 3). Run: npm run bench -- http [--scales 2000,100000] [--seconds 8] [--only TEXT]
// (--only: just the rows whose label contains TEXT, e.g. --only search). It measures what `npm start` runs,
// the compiled dist/: through tsx the same server cost more CPU a request in most processes, the bare one did
// not (docs/benchmarks.md, REST, "Session 34").
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { demoDatabase, fmt, table } from './lib.js';
import { buildDist, freePort, spawnServe, spawnServer } from './servers.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SCALES = arg('scales', '2000,100000').split(',').map(Number);
const SECONDS = Number(arg('seconds', '8'));
const CONNECTIONS = 50;
const ONLY = arg('only', '');

interface Row {
  scale: number;
  path: string;
  server: string;
  rps: number;
  p50: number;
  p99: number;
  mbps: number;
  /** The server process's CPU time (user + system) per request: steadier than req/s when the machine is shared. */
  cpuUs: number;
}
const results: Row[] = [];

buildDist();

/** CPU time (user + system) of a process so far, in µs, from /proc (clock ticks of 10 ms). */
function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function load(url: string, pid: number, opts: { headers?: Record<string, string>; paths?: string[] } = {}) {
  let i = 0;
  const cpu0 = cpuUs(pid);
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: opts.headers,
    requests: opts.paths ? [{ setupRequest: (req: any) => ({ ...req, path: opts.paths![i++ % opts.paths!.length] }) }] : undefined,
  });
  if (r.non2xx && !opts.headers?.['if-none-match']) throw new Error(`${url}: ${r.non2xx} non-2xx responses`);
  const cpu = (cpuUs(pid) - cpu0) / r.requests.total;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mbps: r.throughput.average / 1e6, cpuUs: cpu };
}

// Varied searches: distinct filter combinations, so most requests miss the per-revision response memo.
function variedSearches(n: number): string[] {
  const words = ['leak', 'on time', 'price', 'drain', 'clean', 'late', 'explained', 'water heater', 'friendly', 'mess'];
  const techs = ['mike', 'sarah', 'jamal', 'tom', 'ana', 'kevin', 'priya', 'dave'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const year = 2022 + (i % 5);
    out.push(
      `/api/reviews/search?min_rating=${1 + (i % 5)}&since=${year}-${String(1 + (i % 12)).padStart(2, '0')}-01&query=${encodeURIComponent(words[i % words.length])}&mentions_technician=${techs[(i >> 3) % techs.length]}&limit=${4 + (i % 97)}`,
    );
  }
  return out;
}

/** The URLs of up to `max` pages of a search, found by following next_cursor (what a paging client requests). */
async function pagedSearch(base: string, first: string, max: number): Promise<string[]> {
  const out = [first];
  while (out.length < max) {
    const body = (await (await fetch(base + out[out.length - 1])).json()) as { next_cursor: string | null };
    if (!body.next_cursor) break;
    const url = new URL(out[0], base);
    url.searchParams.set('cursor', body.next_cursor);
    out.push(url.pathname + url.search);
  }
  return out;
}

for (const scale of SCALES) {
  const { dir, db } = await demoDatabase(scale);

  const ours = await spawnServe(db, { compiled: true });
  const paths = { reviews: '/reviews.json', feed: '/api/feed.json', search: '/api/reviews/search?rating=5&query=leak&since=2024-01-01' };
  const fetched: Record<string, { file: string; etag: string; type: string; headers: Record<string, string> }> = {};
  for (const [name, path] of Object.entries(paths)) {
    const res = await fetch(ours.url + path, { headers: { 'accept-encoding': 'identity' } });
    const file = join(dir, `${name}.body`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    // The baseline sends the same headers we must send (validators, caching, Link, CORS), so only the framework differs.
    const keep = ['etag', 'last-modified', 'cache-control', 'vary', 'link', 'access-control-allow-origin', 'access-control-expose-headers'];
    const headers = Object.fromEntries(keep.flatMap((h) => (res.headers.get(h) ? [[h, res.headers.get(h)!]] : [])));
    fetched[path] = { file, etag: res.headers.get('etag')!, type: res.headers.get('content-type')!, headers };
  }
  const reviewsDoc = JSON.parse((await import('node:fs')).readFileSync(fetched['/reviews.json'].file, 'utf8'));
  writeFileSync(join(dir, 'routes.json'), JSON.stringify(fetched));
  const bare = await spawnServer(['--import', 'tsx', 'bench/bare-server.ts', join(dir, 'routes.json')], {}, /listening (http:\S+)/);
  const etag = fetched['/reviews.json'].etag;
  // The same server with the fast path off, for the feed rows (the datasets' GETs it serves ahead of Fastify).
  const viaFastify = !['/api/feed.json', '/api/feed.json 304'].some((label) => label.includes(ONLY))
    ? null
    : await spawnServer(['bench/through-fastify.mjs', db], {}, /listening (http:\S+)/);

  const run = async (label: string, server: string, pid: number, url: string, opts?: Parameters<typeof load>[2]) => {
    if (!label.includes(ONLY)) return;
    const r = await load(url, pid, opts);
    results.push({ scale, path: label, server, ...r });
    console.error(`${scale} ${label} ${server}: ${fmt(r.rps)} req/s p99 ${r.p99} ms, server CPU ${fmt(r.cpuUs, 1)} µs/req`);
  };
  const [o, b] = [ours.child.pid!, bare.child.pid!];
  const feedEtag = fetched[paths.feed].etag;
  await run('/reviews.json 200', 'reviewcast', o, ours.url + paths.reviews);
  await run('/reviews.json 200', 'bare node:http', b, bare.url + paths.reviews);
  await run('/reviews.json 304', 'reviewcast', o, ours.url + paths.reviews, { headers: { 'if-none-match': etag } });
  await run('/reviews.json 304', 'bare node:http', b, bare.url + paths.reviews, { headers: { 'if-none-match': etag } });
  await run('/api/feed.json', 'reviewcast', o, ours.url + paths.feed);
  await run('/api/feed.json', 'bare node:http', b, bare.url + paths.feed);
  await run('/api/feed.json 304', 'reviewcast', o, ours.url + paths.feed, { headers: { 'if-none-match': feedEtag } });
  await run('/api/feed.json 304', 'bare node:http', b, bare.url + paths.feed, { headers: { 'if-none-match': feedEtag } });
  if (viaFastify) {
    // Its Link header names its own port: the same length, so the same bytes on the wire but for the digits.
    const f = viaFastify.child.pid!;
    const fEtag = (await fetch(viaFastify.url + paths.feed, { headers: { 'accept-encoding': 'identity' } })).headers.get('etag')!;
    await run('/api/feed.json', 'reviewcast, fast path off', f, viaFastify.url + paths.feed);
    await run('/api/feed.json 304', 'reviewcast, fast path off', f, viaFastify.url + paths.feed, { headers: { 'if-none-match': fEtag } });
    // through-fastify.mjs is not type-checked: its rows count only if the fast path was really off.
    const metrics = await (await fetch(`${viaFastify.url}/metrics`)).text();
    if (!/^reviewcast_http_fast_path_responses_total 0$/m.test(metrics))
      throw new Error('the "fast path off" server answered ahead of Fastify');
    await viaFastify.stop();
  }
  await run('search (rating, query, since)', 'reviewcast', o, ours.url + paths.search);
  await run('search (20,000 distinct 5-filter queries: mostly memo misses)', 'reviewcast', o, ours.url, { paths: variedSearches(20_000) });
  const paged = '/api/reviews/search?has_text=true&sort=highest&limit=100';
  const pages = await pagedSearch(ours.url, paged, 1000);
  // The same search's first page alone, beside the walk: what following cursors costs over the one page everyone asks for.
  await run('search first page, no cursor (has_text, sort=highest, 100 a page)', 'reviewcast', o, ours.url + paged);
  await run(`search pages by cursor (has_text, sort=highest, 100 a page; ${pages.length} pages)`, 'reviewcast', o, ours.url, {
    paths: pages,
  });
  await bare.stop();
  await ours.stop();

  // json-server 0.17 over the same reviews; its full-text `q` is the closest to our `query`.
  writeFileSync(join(dir, 'db.json'), JSON.stringify({ reviews: reviewsDoc.reviews }));
  const port = await freePort();
  const js = await spawnServer(
    ['node_modules/json-server/lib/cli/bin.js', '--port', String(port), '--host', '127.0.0.1', join(dir, 'db.json')],
    {},
    /(http:\/\/127\.0\.0\.1:\d+)/,
  );
  await run('search (rating, query)', 'json-server 0.17', js.child.pid!, `http://127.0.0.1:${port}/reviews?rating=5&q=leak&_limit=20`);
  await js.stop();
}

table(
  ['reviews', 'request', 'server', 'req/s', 'p50 ms', 'p99 ms', 'MB/s', 'server CPU µs/req'],
  results.map((r) => [fmt(r.scale), r.path, r.server, fmt(r.rps), fmt(r.p50, 1), fmt(r.p99, 1), fmt(r.mbps, 1), fmt(r.cpuUs, 1)]),
);
