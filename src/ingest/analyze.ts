import { sql } from 'kysely';
import type { Business } from '../domain/index.js';
import { ENGINE_VERSION, createAnalyzer } from '../insights/index.js';
import type { ReviewAnalysisTable, Store } from '../store/index.js';
import { hashOf } from './identity.js';

/**
 * What an analysis depends on besides the review row: the engine and the names it can mention.
 * Stored as `<row_hash>|<this>` so the database itself finds the stale ones.
 */
export const analysisContext = (b: Business) => hashOf([ENGINE_VERSION, b.vertical, b.technicians, b.services, b.service_areas]);

/**
 * Analyses the published reviews whose stored analysis is missing or stale (new text, new engine,
 * renamed technicians) and stores the results, so restarts and unchanged reviews are never re-analysed.
 */
export async function analyzePending(
  store: Store,
  opts: {
    onProgress?: (done: number, total: number) => void;
    /** Only the rows this revision wrote (what an import just changed), instead of scanning every review. */
    revision?: number;
  } = {},
): Promise<{ analysed: number }> {
  const business = await store.getBusiness();
  if (!business) return { analysed: 0 };
  const suffix = `|${analysisContext(business)}`;
  const pending = await store.db
    .selectFrom('reviews as r')
    .leftJoin('review_analysis as a', 'a.review_id', 'r.id')
    .select(['r.id', 'r.text', 'r.title', 'r.rating', 'r.language', 'r.row_hash'])
    .where('r.published', '=', 1)
    .$if(opts.revision !== undefined, (q) => q.where('r.changed_revision', '=', opts.revision!))
    .where((eb) => eb.or([eb('a.review_id', 'is', null), eb('a.content_hash', '!=', sql<string>`r.row_hash || ${suffix}`)]))
    .execute();
  if (pending.length === 0) return { analysed: 0 };
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
    batch.push({ review_id: r.id, engine: ENGINE_VERSION, content_hash: r.row_hash + suffix, analysis: JSON.stringify(analysis) });
    if (batch.length >= 1000) await store.saveAnalyses(batch.splice(0));
    opts.onProgress?.(++done, pending.length);
  }
  await store.saveAnalyses(batch);
  return { analysed: pending.length };
}
