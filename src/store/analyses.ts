import { type Business, hashOf } from '../domain/index.js';

/** What an analysis depends on besides its review: the engine and the names the profile lets it mention. */
export interface AnalysisContext {
  engine: string;
  business: Business;
}

/**
 * The one analysis cache key: the review's stored version and the context. An analysis stored under
 * another key (new text, new engine, renamed technicians) is stale. Byte-identical to the keys stored
 * before the store computed it, so existing databases keep their analyses.
 */
export const analysisKey = (version: string, ctx: AnalysisContext) => `${version}|${contextHash(ctx)}`;

/** Each context's hash, made once: a build keys every row under one context (100k SHA-256s of the profile cost a second). */
const contextHashes = new WeakMap<AnalysisContext, string>();

function contextHash(ctx: AnalysisContext): string {
  let hash = contextHashes.get(ctx);
  if (hash === undefined) {
    const b = ctx.business;
    hash = hashOf([ctx.engine, b.vertical, b.technicians, b.services, b.service_areas]);
    contextHashes.set(ctx, hash);
  }
  return hash;
}

/** An analysis to store: the review, the version of it that was analysed, and the analysis (JSON). */
export interface AnalysisWrite {
  reviewId: string;
  version: string;
  analysis: string;
}
