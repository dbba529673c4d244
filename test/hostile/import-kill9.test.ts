// kill -9 of `reviewcast import` at seeded random points: the database is then exactly as before the
// import or exactly as after it (reviews, their analyses, revisions), never in between.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { analyseReviews } from '../../src/catalog/index.js';
import { demoBusiness, generateDemoReviews, prng } from '../../src/demo/index.js';
import { importFile } from '../../src/ingest/index.js';
import { engine } from '../../src/insights/index.js';
import { Store } from '../../src/store/index.js';
import { tempDir } from '../helpers/index.js';

const dir = tempDir();
const seedDb = join(dir, 'before.db');
const importPath = join(dir, 'import.ndjson');
const ITERATIONS = 6;

/**
 * Reviews, analyses and revisions in a fixed order, without what names the moment of the import
 * (first_seen_at, the revision's created_at): those differ between two runs of the same import.
 */
function canonical(file: string): string {
  const db = new SQLite(file, { readonly: true });
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    const reviews = db.prepare('select * from reviews order by id').all() as Record<string, unknown>[];
    for (const r of reviews) delete r.first_seen_at;
    return JSON.stringify({
      reviews,
      analyses: db.prepare('select * from review_analysis order by review_id').all(),
      revisions: db.prepare('select id, reason from revisions order by id').all(),
    });
  } finally {
    db.close();
  }
}

/** Runs the CLI import into `db`, SIGKILLed after `killAfterMs` if given. Resolves with how it ended. */
function importInto(db: string, killAfterMs?: number): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', importPath, '--database-url', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr });
    }),
  );
}

let beforeState: string;
let afterState: string;
/** How long the uninterrupted import ran, ms. */
let totalMs: number;

before(async () => {
  const store = await Store.open(seedDb);
  await store.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
  const seedFile = join(dir, 'seed.ndjson');
  const seed = generateDemoReviews({ reviews: 300, seed: 5 });
  writeFileSync(seedFile, seed.map((r) => JSON.stringify(r)).join('\n'));
  assert.equal((await importFile(store, seedFile, { analyze: analyseReviews(engine) })).added, 300);
  await store.close();
  // The import: 800 new reviews, and 100 of the stored ones with a new text (and an explicit
  // updated_at, so both runs write the same value).
  const fresh = generateDemoReviews({ reviews: 800, seed: 6 }).map((r, i) => ({ ...r, source_review_id: `k9-${i}`, source: 'direct' }));
  const edited = seed.slice(0, 100).map((r) => ({ ...r, text: `${r.text ?? ''} Edited later.`, updated_at: '2026-11-01T00:00:00.000Z' }));
  writeFileSync(importPath, [...fresh, ...edited].map((r) => JSON.stringify(r)).join('\n'));
  beforeState = canonical(seedDb);
  // Two uninterrupted runs: how long one takes, and the state after (the same for both).
  const references: string[] = [];
  const started = performance.now();
  for (const name of ['a', 'b']) {
    const db = join(dir, `reference-${name}.db`);
    copyFileSync(seedDb, db);
    const done = await importInto(db);
    assert.equal(done.code, 0, done.stderr);
    references.push(canonical(db));
  }
  totalMs = (performance.now() - started) / 2;
  afterState = references[0];
  assert.equal(references[1], afterState, 'the same import gives the same database');
  assert.notEqual(afterState, beforeState);
});

test('kill -9 at random points leaves the database exactly before or exactly after the import', async (t) => {
  const random = prng(1313);
  const outcomes: string[] = [];
  // Half the kills anywhere in the run, half late in it, where the write transaction and its commit
  // are (SQLite writes the whole transaction to its log at commit). One at a time, as the reference ran
  // (and so as not to crowd the machine for other test files).
  const delays = Array.from({ length: ITERATIONS }, (_, k) => Math.floor((k % 2 === 0 ? 1.1 * random() : 0.7 + 0.45 * random()) * totalMs));
  for (const [k, delay] of delays.entries()) {
    const db = join(dir, `kill-${k}.db`);
    copyFileSync(seedDb, db);
    const ended = await importInto(db, delay);
    const state = canonical(db);
    const outcome = state === beforeState ? 'before' : state === afterState ? 'after' : 'partial';
    outcomes.push(`${outcome}${ended.signal ? ' (killed)' : ''} at ${delay} ms`);
    assert.notEqual(outcome, 'partial', `kill at ${delay} ms: the database is neither the state before nor after the import`);
  }
  t.diagnostic(`uninterrupted import: ${Math.round(totalMs)} ms; outcomes: ${outcomes.join(', ')}`);
  assert.ok(
    outcomes.some((o) => o.includes('killed')),
    'at least one import was killed before it finished',
  );
});
