import type { Business } from '../domain/index.js';
import { ENGINE_VERSION, createAnalyzer } from '../insights/index.js';
import type { ReviewAnalysisTable, Store } from '../store/index.js';
import { hashOf } from './identity.js';

/** What an analysis depends on: the review's words and rating, and the names it can mention. */
const analysisHash = (r: { text: string | null; title: string | null; rating: number; language: string | null }, profile: string) =>
  hashOf([ENGINE_VERSION, r.text, r.title, r.rating, r.language, profile]);

const profileKey = (b: Business) => hashOf([b.vertical, b.technicians, b.services, b.service_areas]);

/**
 * Analyses the published reviews whose stored analysis is missing or stale (new text, new engine,
 * renamed technicians) and stores the results, so restarts and unchanged reviews are never re-analysed.
 */
export async function analyzePending(store: Store, opts: { onProgress?: (done: number, total: number) => void } = {}): Promise<{ analysed: number; total: number }> {
  const business = await store.getBusiness();
  if (!business) return { analysed: 0, total: 0 };
  const profile = profileKey(business);
  const [rows, stored] = await Promise.all([
    store.db.selectFrom('reviews').select(['id', 'text', 'title', 'rating', 'language']).where('published', '=', 1).execute(),
    store.db.selectFrom('review_analysis').select(['review_id', 'content_hash']).execute(),
  ]);
  const current = new Map(stored.map((s) => [s.review_id, s.content_hash]));
  const pending = rows.filter((r) => current.get(r.id) !== analysisHash(r, profile));
  if (pending.length === 0) return { analysed: 0, total: rows.length };
  const analyzer = createAnalyzer({
    vertical: business.vertical,
    technicians: business.technicians,
    services: business.services,
    serviceAreas: business.service_areas,
  });
  const batch: ReviewAnalysisTable[] = [];
  let done = 0;
  for (const r of pending) {
    const analysis = analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language });
    batch.push({ review_id: r.id, engine: ENGINE_VERSION, content_hash: analysisHash(r, profile), analysis: JSON.stringify(analysis) });
    if (batch.length >= 1000) await store.saveAnalyses(batch.splice(0));
    opts.onProgress?.(++done, pending.length);
  }
  await store.saveAnalyses(batch);
  return { analysed: pending.length, total: rows.length };
}
