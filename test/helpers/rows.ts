import { generateDemoReviews } from '../../src/demo/index.js';
import type { StoredReview } from '../../src/domain/index.js';
import { hashOf, reviewId } from '../../src/ingest/index.js';

/** Stored review records made straight from demo records (in the store's key order), for building catalogs without a database. */
export function storedReviews(n: number, seed: number, prefix = 't'): StoredReview[] {
  return generateDemoReviews({ reviews: n, seed }).map((r, i) => {
    const published_at = r.published_at ?? `${r.date}T00:00:00.000Z`;
    return {
      id: reviewId(`${prefix}${i}`, published_at),
      author: r.author,
      author_avatar_url: null,
      rating: r.rating,
      date: r.date,
      text: r.text ?? null,
      source: r.source ?? 'direct',
      source_url: null,
      owner_reply: null,
      verified: true,
      published_at,
      updated_at: published_at,
      first_seen_at: published_at,
      title: null,
      language: 'en',
      technicians: r.technicians ?? [],
      services: r.services ?? [],
      service_area: null,
      verification: { method: 'platform' },
      source_review_id: r.source_review_id ?? null,
      published: true,
      version: hashOf([prefix, i]),
      changed_revision: 1,
    };
  });
}
