import type { MentionMatcher, Review } from '../domain/index.js';
import type { ReviewTable } from '../store/index.js';

export interface Attribution {
  technicians: MentionMatcher;
  services: MentionMatcher;
  areas: MentionMatcher;
}

/** The ids an analysis found mentioned in a review's text (a ReviewAnalysis has them). */
export interface FoundMentions {
  technicians: readonly string[];
  services: readonly string[];
  service_areas: readonly string[];
}

export const union = (explicit: string[], found: readonly string[]) =>
  found.every((id) => explicit.includes(id)) ? explicit : [...new Set([...explicit, ...found])];

/**
 * A stored row as the public Review. Explicit attributions from the import come first; names and
 * aliases the analysis found in the text are added (the analysis is redone when the profile changes,
 * so a new alias applies to old reviews without re-importing them).
 */
export function toReview(row: ReviewTable, analysis: FoundMentions, permalink: (id: string) => string): Review {
  return {
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
    technicians: union(JSON.parse(row.technicians), analysis.technicians),
    services: union(JSON.parse(row.services), analysis.services),
    service_area: row.service_area ?? analysis.service_areas[0] ?? null,
    verification: { method: row.verification_method },
    url: permalink(row.id),
  };
}
