// What a stream of distinct URLs costs the server (issue 13): N distinct `since` dates (consecutive days
// from 1900-01-01, so each body is every review) and N distinct searches, with Accept-Encoding: br.
// Server CPU and RSS are read from /proc for the server's own process; the memo's counted bytes from
// /metrics. Run: npm run bench -- hostile [--scales 2000,100000] [--since 300] [--searches 10000] [--concurrency 8]
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { demoDatabase, fmt, table } from './lib.js';
import { spawnServer } from './servers.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SCALES = arg('scales', '2000').split(',').map(Number);
const SINCE = Number(arg('since', '300'));
const SEARCHES = Number(arg('searches', '10000'));
const CONCURRENCY = Number(arg('concurrency', '8'));

/** CPU seconds (user + system) and resident set of a process, from /proc. */
function usage(pid: number): { cpu: number; rssMb: number; peakMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  // Fields 14 and 15 of stat (utime, stime) in clock ticks; Linux reports 100 per second.
  return { cpu: (Number(fields[11]) + Number(fields[12])) / 100, rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

async function memoBytes(url: string): Promise<number | null> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^reviewcast_memo_bytes (\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One GET, the body read to the end as sent (no decoding): its status and bytes on the wire. */
const get = (url: string) =>
  new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    request(url, { agent, headers: { 'accept-encoding': 'br' } }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

/** Every path fetched once, CONCURRENCY at a time. */
async function run(url: string, paths: string[]): Promise<{ bytes: number; statuses: Map<number, number> }> {
  let next = 0;
  let bytes = 0;
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) {
        const res = await get(url + paths[next++]);
        bytes += res.bytes;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  return { bytes, statuses };
}

const day = (i: number) => new Date(Date.UTC(1900, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const words = ['leak', 'on time', 'price', 'drain', 'clean', 'late', 'explained', 'water heater', 'friendly', 'mess'];
const search = (i: number) =>
  `/api/reviews/search?query=${encodeURIComponent(words[i % words.length])}&since=${day(40_000 + (i % 3000))}&limit=${1 + (i % 100)}`;

const rows: (string | number)[][] = [];
for (const scale of SCALES) {
  const { db } = await demoDatabase(scale);
  for (const [what, paths] of [
    [`${SINCE} distinct since dates`, Array.from({ length: SINCE }, (_, i) => `/api/reviews/since/${day(i)}`)],
    [`${SEARCHES} distinct searches`, Array.from({ length: SEARCHES }, (_, i) => search(i))],
  ] as const) {
    const server = await spawnServer(
      ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--database-url', db],
      { LOG_LEVEL: 'info' },
      /"url":"(http:[^"]+)".*reviewcast listening/,
    );
    while ((await fetch(`${server.url}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 50));
    // One request of each kind first, so the baseline includes whatever a first request loads.
    await run(server.url, ['/api/reviews/since/2100-01-01', '/api/reviews/search?query=x']);
    const pid = server.child.pid!;
    const before = usage(pid);
    const t = performance.now();
    const { bytes, statuses } = await run(server.url, [...paths]);
    const seconds = (performance.now() - t) / 1000;
    const after = usage(pid);
    const memo = await memoBytes(server.url);
    await server.stop();
    rows.push([
      fmt(scale),
      what,
      [...statuses].map(([s, n]) => `${n}×${s}`).join(' '),
      fmt(bytes / 1e6, 1),
      fmt(seconds, 1),
      fmt(after.cpu - before.cpu, 1),
      `${fmt(before.rssMb)} → ${fmt(after.rssMb)} (peak ${fmt(after.peakMb)})`,
      memo === null ? 'n/a' : fmt(memo / 2 ** 20, 1),
    ]);
  }
}
table(
  [
    'reviews',
    'requests (accept-encoding: br)',
    'statuses',
    'MB sent (as coded)',
    'wall s',
    'server CPU s',
    'server RSS MB before → after',
    'memo MiB',
  ],
  rows,
);
