// Import throughput and cold start with 100k stored reviews (issue 2). Run: npm run bench -- import
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { demoBusiness } from '../src/demo/index.js';
import { analyzePending, importFile, importRows } from '../src/ingest/index.js';
import { Store } from '../src/store/index.js';
import { benchDir, demoFile, fmt, table } from './lib.js';

const N = Number(process.env.BENCH_REVIEWS ?? 100_000);
const dir = benchDir();
const file = demoFile(dir, N);
const db = join(dir, 'bench.db');

const store = await Store.open(db);
await store.setBusiness(demoBusiness(), new Date().toISOString());
let t = performance.now();
const report = await importFile(store, file);
const importMs = performance.now() - t;
if (report.invalid.length) throw new Error(`demo rows rejected: ${JSON.stringify(report.invalid.slice(0, 3))}`);
t = performance.now();
const again = await importFile(store, file);
const reimportMs = performance.now() - t;
t = performance.now();
const analysed = await analyzePending(store);
const analyseMs = performance.now() - t;
await store.close();

/** Wall time from process start to /readyz answering 200, as an operator sees it. */
async function coldStart(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--database-url', db, '--public-base-url', 'https://reviews.bench.example'], {
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/"url":"(http:[^"]+)"/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  while ((await fetch(`${url}/readyz`).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 10));
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  return ms;
}
const cold = [await coldStart(), await coldStart(), await coldStart()].sort((a, b) => a - b)[1];

/**
 * One new review into the N-review corpus while a server runs: time from the import's commit until
 * /insights.json counts it. Twice: the first rebuild after a start reads everything, later ones only
 * what changed.
 */
async function freshness(): Promise<[number, number]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--database-url', db, '--public-base-url', 'https://reviews.bench.example'], {
    env: { ...process.env, LOG_LEVEL: 'info', REVIEWCAST_POLL_MS: '50' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve) => child.stdout.on('data', (d) => (out += d) && out.match(/"url":"(http:[^"]+)".*reviewcast listening/) && resolve(out.match(/"url":"(http:[^"]+)".*reviewcast listening/)![1])));
  const count = async () => (await (await fetch(`${url}/readyz`)).json()).reviews as number;
  const s = await Store.open(db);
  const once = async (k: number) => {
    const before = await count();
    const t0 = performance.now();
    await importRows(s, [{ index: 0, value: { source: 'direct', source_review_id: `fresh-${Date.now()}-${k}`, author: 'Fresh', rating: 5, date: '2026-11-21', text: 'Dave fixed the sewer line the same day.' } }], []);
    while ((await count()) === before) await new Promise((r) => setTimeout(r, 10));
    const ms = performance.now() - t0;
    if ((await (await fetch(`${url}/insights.json`)).json()).review_count !== before + 1) throw new Error('insights did not follow');
    return ms;
  };
  const first = await once(1);
  const later = await once(2);
  await s.close();
  child.kill('SIGTERM');
  return [first, later];
}
const fresh = await freshness();

table(
  ['step', 'reviews', 'time', 'rate'],
  [
    ['import (new)', fmt(report.added), `${fmt(importMs / 1000, 2)} s`, `${fmt(report.added / (importMs / 1000))} reviews/s`],
    ['re-import (unchanged)', fmt(again.unchanged), `${fmt(reimportMs / 1000, 2)} s`, `${fmt(again.unchanged / (reimportMs / 1000))} reviews/s`],
    ['analyse', fmt(analysed.analysed), `${fmt(analyseMs / 1000, 2)} s`, `${fmt(analysed.analysed / (analyseMs / 1000))} reviews/s`],
    ['cold start to ready (median of 3)', fmt(N), `${fmt(cold / 1000, 2)} s`, ''],
    ['one new review → served in /insights.json (first change after a start)', fmt(N + 1), `${fmt(fresh[0] / 1000, 2)} s`, ''],
    ['one new review → served in /insights.json (later changes)', fmt(N + 2), `${fmt(fresh[1] / 1000, 2)} s`, ''],
  ],
);
