import type { Review } from '../../domain/index.js';

/** A title for feed readers when the review has none of its own. */
export const reviewTitle = (r: Review) => r.title ?? `${'★'.repeat(r.rating)}${'☆'.repeat(5 - r.rating)} review by ${r.author}`;

export const reviewTags = (r: Review) => [`rating:${r.rating}`, `source:${r.source}`, ...r.services.map((s) => `service:${s}`)];
