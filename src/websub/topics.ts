import type { Catalog, Representation } from '../catalog/index.js';
import { TOPICS, topicUrl } from '../domain/index.js';

export interface Topic {
  url: string;
  representation: Representation;
}

/** The WebSub topics of a catalog revision, each with the exact bytes a subscriber receives. */
export const topicsOf = (c: Catalog): Topic[] =>
  TOPICS.map((name) => ({ url: topicUrl(c.links, name), representation: c.representations[name] }));

export const topicUrls = (c: Catalog) => topicsOf(c).map((t) => t.url);
