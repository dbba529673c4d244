import type { MentionMatcher, Review } from '../domain/index.js';
import type { ReviewTable } from '../store/index.js';

export interface Attribution {
  technicians: MentionMatcher;
  services: MentionMatcher;
  areas: MentionMatcher;
}

const union = (explicit: string[], found: string[]) => (found.every((id) => explicit.includes(id)) ? explicit : [...new Set([...explicit, ...found])]);

/**
 * A stored row as the public Review. Explicit attributions from the import come first; names and
 * aliases mentioned in the text are added with the current business profile, so a new alias applies
 * to old reviews without re-importing them.
 */
export function toReview(row: ReviewTable, attribution: Attribution, permalink: (id: string) => string): Review {
  const text = [row.title, row.text].filter(Boolean).join('\n');
  return {
    id: row.id,
    author: row.author,
    author_avatar_url: row.author_avatar_url,
    rating: row.rating,
    date: row.date,
    text: row.text,
    source: row.source,
    source_url: row.source_url,
    owner_reply: row.owner_reply_text != null && row.owner_reply_date != null ? { text: row.owner_reply_text, date: row.owner_reply_date } : null,
    verified: row.verified === 1,
    published_at: row.published_at,
    updated_at: row.updated_at,
    first_seen_at: row.first_seen_at,
    title: row.title,
    language: row.language,
    technicians: union(JSON.parse(row.technicians), attribution.technicians.find(text)),
    services: union(JSON.parse(row.services), attribution.services.find(text)),
    service_area: row.service_area ?? attribution.areas.find(text)[0] ?? null,
    verification: { method: row.verification_method },
    url: permalink(row.id),
  };
}
