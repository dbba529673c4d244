import type { Catalog, Representation } from '../catalog/index.js';

export interface Topic {
  url: string;
  representation: Representation;
}

/** The three WebSub topics of a catalog revision, each with the exact bytes a subscriber receives. */
export const topicsOf = (c: Catalog): Topic[] => [
  { url: c.links.feedAtom, representation: c.representations.feedAtom },
  { url: c.links.feedJson, representation: c.representations.feedJson },
  { url: c.links.reviewsJson, representation: c.representations.reviews },
];

export const topicUrls = (c: Catalog) => topicsOf(c).map((t) => t.url);
