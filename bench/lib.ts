import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzePending } from '../src/catalog/index.js';
import { demoBusiness, generateDemoReviews } from '../src/demo/index.js';
import { importFile } from '../src/ingest/index.js';
import { engine } from '../src/insights/index.js';
import { Store } from '../src/store/index.js';

/**
 * A scratch folder, removed when the bench exits (not when it is killed): a 100k run leaves 650 MB there, and
 * runs that kept theirs once filled this machine's disk.
 */
export function benchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reviewcast-bench-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An NDJSON file of N deterministic demo reviews. */
export function demoFile(dir: string, n: number): string {
  const file = join(dir, `demo-${n}.ndjson`);
  writeFileSync(
    file,
    `${generateDemoReviews({ reviews: n })
      .map((r) => JSON.stringify(r))
      .join('\n')}\n`,
  );
  return file;
}

/** An import file of one new review whose text holds `word`, so that a search for it tells when the review is served. */
export function oneReviewFile(dir: string, word: string): string {
  const file = join(dir, 'one.json');
  const review = {
    source: 'direct',
    source_review_id: `fresh-${word}`,
    author: 'Fresh C.',
    rating: 5,
    date: '2026-10-31',
    text: `The ${word} valve was replaced the same day and the crew cleaned up.`,
  };
  writeFileSync(file, JSON.stringify([review]));
  return file;
}

/** A fresh SQLite database holding the demo business and N demo reviews with their analyses. */
export async function demoDatabase(n: number): Promise<{ dir: string; db: string }> {
  const dir = benchDir();
  const db = join(dir, 'bench.db');
  const store = await Store.open(db);
  await store.setBusiness(demoBusiness(), new Date().toISOString());
  await importFile(store, demoFile(dir, n));
  await analyzePending(store, engine);
  await store.close();
  return { dir, db };
}

// Distinct 5-filter searches with limits 4–100: most miss the per-revision response memo.
export function distinctSearches(n: number): string[] {
  const words = ['leak', 'on time', 'price', 'drain', 'clean', 'late', 'explained', 'water heater', 'friendly', 'mess'];
  const techs = ['mike', 'sarah', 'jamal', 'tom', 'ana', 'kevin', 'priya', 'dave'];
  return Array.from(
    { length: n },
    (_, i) =>
      `/api/reviews/search?min_rating=${1 + (i % 5)}&since=${2022 + (i % 5)}-${String(1 + (i % 12)).padStart(2, '0')}-01` +
      `&query=${encodeURIComponent(words[i % words.length])}&mentions_technician=${techs[(i >> 3) % techs.length]}&limit=${4 + (i % 97)}`,
  );
}

/** Print a Markdown table (so it pastes straight into the README). */
export function table(headers: string[], rows: (string | number)[][]): void {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  console.log(line(headers));
  console.log(line(headers.map(() => '---')));
  for (const r of rows) console.log(line(r));
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
