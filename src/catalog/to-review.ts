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
  // The record is in the Review's key order (the bytes follow it), so a new review field passes through.
  const { source_review_id, published, version, changed_revision, ...review } = r;
  return withMentions({ ...review, url: permalink(r.id) }, analysis);
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
