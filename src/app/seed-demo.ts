import { demoBusiness, generateDemoReviews } from '../demo/index.js';
import { importRows } from '../ingest/index.js';
import type { Store } from '../store/index.js';

/** Fill an empty database with the demo business through the same import path an operator uses. */
export async function seedDemo(store: Store, reviews = 2000): Promise<{ reviews: number }> {
  const now = new Date().toISOString();
  await store.setBusiness(demoBusiness(), now);
  const rows = generateDemoReviews({ reviews }).map((value, index) => ({ index, value }));
  const report = await importRows(store, rows, [], { now });
  if (report.invalid.length) throw new Error(`demo data is invalid: ${JSON.stringify(report.invalid.slice(0, 3))}`);
  return { reviews: report.added };
}
