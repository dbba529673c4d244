import type { MentionMatcher, Review, StoredReview } from '../domain/index.js';

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
 * A stored review as the public Review. Explicit attributions from the import come first; names and
 * aliases the analysis found in the text are added (the analysis is redone when the profile changes,
 * so a new alias applies to old reviews without re-importing them).
 */
export function toReview(r: StoredReview, analysis: FoundMentions, permalink: (id: string) => string): Review {
  return {
    id: r.id,
    author: r.author,
    author_avatar_url: r.author_avatar_url,
    rating: r.rating,
    date: r.date,
    text: r.text,
    source: r.source,
    source_url: r.source_url,
    owner_reply: r.owner_reply,
    verified: r.verified,
    published_at: r.published_at,
    updated_at: r.updated_at,
    first_seen_at: r.first_seen_at,
    title: r.title,
    language: r.language,
    technicians: union(r.technicians, analysis.technicians),
    services: union(r.services, analysis.services),
    service_area: r.service_area ?? analysis.service_areas[0] ?? null,
    verification: r.verification,
    url: permalink(r.id),
  };
}
