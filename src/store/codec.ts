import type { StoredAnalysis, StoredReview } from '../domain/index.js';
import type { ReviewAnalysisTable, ReviewTable } from './schema.js';

/**
 * A review row as the record the rest of the service reads: booleans from 0/1, id lists from JSON
 * text, the owner reply from its two columns. The one place that knows the row's encoding; each row
 * is converted once, as it is read, and only the record is kept.
 */
export const reviewOf = (row: ReviewTable): StoredReview => ({
  id: row.id,
  author: row.author,
  author_avatar_url: row.author_avatar_url,
  rating: row.rating,
  date: row.date,
  text: row.text,
  source: row.source,
  source_url: row.source_url,
  owner_reply:
    row.owner_reply_text != null && row.owner_reply_date != null ? { text: row.owner_reply_text, date: row.owner_reply_date } : null,
  verified: row.verified === 1,
  published_at: row.published_at,
  updated_at: row.updated_at,
  first_seen_at: row.first_seen_at,
  title: row.title,
  language: row.language,
  technicians: JSON.parse(row.technicians) as string[],
  services: JSON.parse(row.services) as string[],
  service_area: row.service_area,
  verification: { method: row.verification_method },
  source_review_id: row.source_review_id,
  published: row.published === 1,
  version: row.row_hash,
  changed_revision: row.changed_revision,
});

export const analysisOf = (row: ReviewAnalysisTable): StoredAnalysis => ({
  review_id: row.review_id,
  key: row.content_hash,
  analysis: row.analysis,
});
