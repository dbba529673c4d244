// Import throughput, cold start and freshness with 100k stored reviews (issues 2 and 4).
// Run: npm run bench -- import [--pg]   (--pg: on PostgreSQL, REVIEWCAST_BENCH_PG_URL or a throwaway cluster)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { analyzePending } from '../src/catalog/index.js';
import { demoBusiness } from '../src/demo/index.js';
import { importFile, importRows } from '../src/ingest/index.js';
import { engine } from '../src/insights/index.js';
import { Store } from '../src/store/index.js';
import { freshPgDatabase } from '../test/helpers/index.js';
import { benchDir, demoFile, fmt, table } from './lib.js';
import { spawnServe } from './servers.js';

const BASE = 'https://reviews.bench.example';

const N = Number(process.env.BENCH_REVIEWS ?? 100_000);
const dir = benchDir();
const file = demoFile(dir, N);
const onPg = process.argv.includes('--pg');
const db = onPg
  ? (
      await freshPgDatabase(
        process.env.REVIEWCAST_BENCH_PG_URL ??
          execFileSync('scripts/pg-test-cluster.sh', ['55478', `${dir}/pg`])
            .toString()
            .trim(),
      )
    ).url
  : join(dir, 'bench.db');
console.log(`engine: ${onPg ? 'PostgreSQL' : 'SQLite'}\n`);

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
const analysed = await analyzePending(store, engine);
const analyseMs = performance.now() - t;
await store.close();

/** Wall time from process start to /readyz answering 200, as an operator sees it. */
async function coldStart(): Promise<number> {
  const started = performance.now();
  const server = await spawnServe(db, { publicBaseUrl: BASE });
  while ((await fetch(`${server.url}/readyz`).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 10));
  const ms = performance.now() - started;
  // Let it finish storing what it built, as an operator's restart would, before the next start.
  await server.stop();
  return ms;
}
const cold = [await coldStart(), await coldStart(), await coldStart()].sort((a, b) => a - b)[1];

/**
 * One new review into the N-review corpus while a server runs: the import itself, and the time from
 * its commit until /insights.json counts it. The first rebuild after a start reads everything; later
 * ones (a few seconds apart, as imports come) only what changed.
 */
async function freshness(): Promise<{ first: Fresh; later: Fresh[] }> {
  const server = await spawnServe(db, { publicBaseUrl: BASE });
  const url = server.url;
  const count = async () => (await (await fetch(`${url}/readyz`)).json()).reviews as number;
  const s = await Store.open(db);
  const once = async (k: number): Promise<Fresh> => {
    const before = await count();
    const t0 = performance.now();
    await importRows(
      s,
      [
        {
          index: 0,
          value: {
            source: 'direct',
            source_review_id: `fresh-${Date.now()}-${k}`,
            author: 'Fresh',
            rating: 5,
            date: '2026-11-21',
            text: 'Dave fixed the sewer line the same day.',
          },
        },
      ],
      [],
    );
    const committed = performance.now();
    while ((await count()) === before) await new Promise((r) => setTimeout(r, 5));
    const served = performance.now() - committed;
    if ((await (await fetch(`${url}/insights.json`)).json()).review_count !== before + 1) throw new Error('insights did not follow');
    return { importMs: committed - t0, servedMs: served };
  };
  const pause = () => new Promise((r) => setTimeout(r, 8_000));
  const first = await once(1);
  const later: Fresh[] = [];
  for (let k = 2; k <= 4; k++) {
    await pause();
    later.push(await once(k));
  }
  await s.close();
  await server.stop();
  return { first, later };
}
interface Fresh {
  importMs: number;
  servedMs: number;
}
const fresh = await freshness();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const laterServed = median(fresh.later.map((f) => f.servedMs));
const laterImport = median(fresh.later.map((f) => f.importMs));

table(
  ['step', 'reviews', 'time', 'rate'],
  [
    ['import (new)', fmt(report.added), `${fmt(importMs / 1000, 2)} s`, `${fmt(report.added / (importMs / 1000))} reviews/s`],
    [
      're-import (unchanged)',
      fmt(again.unchanged),
      `${fmt(reimportMs / 1000, 2)} s`,
      `${fmt(again.unchanged / (reimportMs / 1000))} reviews/s`,
    ],
    ['analyse', fmt(analysed.analysed), `${fmt(analyseMs / 1000, 2)} s`, `${fmt(analysed.analysed / (analyseMs / 1000))} reviews/s`],
    ['cold start to ready (median of 3)', fmt(N), `${fmt(cold / 1000, 2)} s`, ''],
    ['one new review: the import command (first change after a start)', fmt(N + 1), `${fmt(fresh.first.importMs / 1000, 2)} s`, ''],
    [
      'one new review: commit → served in /insights.json (first change after a start)',
      fmt(N + 1),
      `${fmt(fresh.first.servedMs / 1000, 2)} s`,
      '',
    ],
    ['one new review: the import command (later changes, median of 3)', fmt(N + 2), `${fmt(laterImport / 1000, 2)} s`, ''],
    ['one new review: commit → served in /insights.json (later changes, median of 3)', fmt(N + 2), `${fmt(laterServed / 1000, 2)} s`, ''],
  ],
);
