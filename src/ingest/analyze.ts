import { sql } from 'kysely';
import type { Business } from '../domain/index.js';
import { type AnalyzerOptions, ENGINE_VERSION } from '../insights/index.js';
import type { Store } from '../store/index.js';
import { AnalysisPool } from './analysis-pool.js';
import { hashOf } from './identity.js';

/**
 * What an analysis depends on besides the review row: the engine and the names it can mention.
 * Stored as `<row_hash>|<this>` so the database itself finds the stale ones.
 */
export const analysisContext = (b: Business) => hashOf([ENGINE_VERSION, b.vertical, b.technicians, b.services, b.service_areas]);

/** The analyzer's view of a business profile. */
export const analyzerOptions = (b: Business): AnalyzerOptions => ({
  vertical: b.vertical,
  technicians: b.technicians,
  services: b.services,
  serviceAreas: b.service_areas,
});

/** Stored a batch at a time, so memory stays flat on a large corpus. */
const BATCH = 2_000;

/**
 * Analyses the published reviews whose stored analysis is missing or stale (new text, new engine,
 * renamed technicians) on every core and stores the results, so restarts and unchanged reviews are
 * never re-analysed.
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
  const pool = new AnalysisPool(analyzerOptions(business));
  try {
    for (let i = 0; i < pending.length; i += BATCH) {
      const batch = pending.slice(i, i + BATCH);
      const analyses = await pool.analyze(
        batch.map((r) => ({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language })),
      );
      await store.saveAnalyses(
        batch.map((r, k) => ({ review_id: r.id, engine: ENGINE_VERSION, content_hash: r.row_hash + suffix, analysis: analyses[k] })),
      );
      opts.onProgress?.(i + batch.length, pending.length);
    }
  } finally {
    await pool.close();
  }
  return { analysed: pending.length };
}
