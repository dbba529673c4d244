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

/** What an analysis that found no mention has (the corpus reports only rows with some). */
export const NO_MENTIONS: FoundMentions = { technicians: [], services: [], service_areas: [] };

export const union = (explicit: string[], found: readonly string[]) =>
  found.every((id) => explicit.includes(id)) ? explicit : [...new Set([...explicit, ...found])];

/**
 * A stored review as the public Review. Explicit attributions from the import come first; names and
 * aliases the analysis found in the text are added (the analysis is redone when the profile changes,
 * so a new alias applies to old reviews without re-importing them).
 */
export function toReview(r: StoredReview, analysis: FoundMentions, permalink: (id: string) => string): Review {
  // In the Review's key order (the bytes follow it; a new field must be added here, or this does not compile).
  // A literal: a rest copy of the record without its store-only fields took ten times as long (about 0.7 s
  // of a first start's event loop at 100k on Node 20).
  const review: Review = {
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
    technicians: r.technicians,
    services: r.services,
    service_area: r.service_area,
    verification: r.verification,
    url: permalink(r.id),
  };
  return withMentions(review, analysis);
}

/**
 * Adds what an analysis found to a review made from its row alone (in place: the keys keep their
 * order), so a full build can make each review as its row is read, before the analyses are staged.
 */
export function withMentions(review: Review, analysis: FoundMentions): Review {
  review.technicians = union(review.technicians, analysis.technicians);
  review.services = union(review.services, analysis.services);
  review.service_area = review.service_area ?? analysis.service_areas[0] ?? null;
  return review;
}
