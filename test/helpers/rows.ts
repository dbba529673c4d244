import { generateDemoReviews } from '../../src/demo/index.js';
import { fingerprint, hashOf, reviewId } from '../../src/ingest/index.js';
import type { ReviewTable } from '../../src/store/index.js';

/** Stored review rows made straight from demo records, for building catalogs without a database. */
export function catalogRows(n: number, seed: number, prefix = 't'): ReviewTable[] {
  return generateDemoReviews({ reviews: n, seed }).map((r, i) => {
    const published_at = r.published_at ?? `${r.date}T00:00:00.000Z`;
    return {
      id: reviewId(`${prefix}${i}`, published_at),
      source: r.source ?? 'direct',
      source_review_id: r.source_review_id ?? null,
      fingerprint: fingerprint(r.source ?? 'direct', r.author, r.date, r.text ?? null),
      author: r.author,
      author_avatar_url: null,
      rating: r.rating,
      date: r.date,
      text: r.text ?? null,
      source_url: null,
      owner_reply_text: null,
      owner_reply_date: null,
      verified: 1,
      published: 1,
      published_at,
      updated_at: published_at,
      first_seen_at: published_at,
      title: null,
      language: 'en',
      technicians: JSON.stringify(r.technicians ?? []),
      services: JSON.stringify(r.services ?? []),
      service_area: null,
      verification_method: 'platform',
      content_hash: hashOf([prefix, i]),
      row_hash: hashOf([prefix, i]),
      changed_revision: 1,
    };
  });
}
