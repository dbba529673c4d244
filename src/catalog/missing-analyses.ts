import type { Business, StoredReview } from '../domain/index.js';
import type { AnalysisContext, Store } from '../store/index.js';
import { AnalysisPool } from './analysis-pool.js';
import type { OnAnalysisFailure } from './analyze-or-rate.js';
import { analyzerOptions, type Engine } from './engine.js';

/**
 * "Analyse these reviews" on every core (a pool of threads for the call), for whoever stores analyses:
 * an import is given this, so the catalog stays the only caller of the analyzer. `onFailure`: told of each
 * review the engine could not read (its analysis is its rating's and title's; see analyzeOrRate).
 */
export const analyseReviews = (engine: Engine, onFailure?: OnAnalysisFailure) => ({
  engine: engine.version,
  async analyse(
    business: Business,
    reviews: readonly Pick<StoredReview, 'id' | 'rating' | 'text' | 'title' | 'language'>[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<string[]> {
    const pool = new AnalysisPool(engine, analyzerOptions(business), reviews.length);
    try {
      return await pool.analyze(
        reviews.map((r) => ({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language })),
        onProgress,
        onFailure,
      );
    } finally {
      await pool.close();
    }
  },
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
  engine: Engine,
  opts: {
    onProgress?: (done: number, total: number) => void;
    /** Told of each review the engine could not read (its analysis is its rating's and title's; see analyzeOrRate). */
    onFailure?: OnAnalysisFailure;
    /** Only the rows this revision wrote (what an import just changed), instead of scanning every review. */
    revision?: number;
  } = {},
): Promise<{ analysed: number }> {
  const business = await store.getBusiness();
  if (!business) return { analysed: 0 };
  const ctx: AnalysisContext = { engine: engine.version, business };
  const pending = await store.pendingAnalyses(ctx, { revision: opts.revision });
  if (pending.length === 0) return { analysed: 0 };
  const pool = new AnalysisPool(engine, analyzerOptions(business), pending.length);
  try {
    for (let i = 0; i < pending.length; i += BATCH) {
      const batch = pending.slice(i, i + BATCH);
      const analyses = await pool.analyze(
        batch.map((r) => ({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language })),
        undefined,
        opts.onFailure,
      );
      await store.saveAnalyses(
        batch.map((r, k) => ({ reviewId: r.id, version: r.version, analysis: analyses[k] })),
        ctx,
      );
      opts.onProgress?.(i + batch.length, pending.length);
    }
  } finally {
    await pool.close();
  }
  return { analysed: pending.length };
}
