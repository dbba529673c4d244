/**
 * Every public path of the service, in one table: routes, the OpenAPI document, llms.txt, robots.txt,
 * the hub's topics and the pages all read it, so a path is spelled once.
 */
export const PATHS = {
  reviews: '/reviews.json',
  insights: '/insights.json',
  feedJson: '/api/feed.json',
  feedAtom: '/feed.xml',
  search: '/api/reviews/search',
  /** Followed by `/{date}`. */
  since: '/api/reviews/since',
  changes: '/api/reviews/changes',
  hub: '/api/websub/hub',
  /** Everything under it is the hub's (robots.txt keeps crawlers out). */
  websub: '/api/websub/',
  mcp: '/mcp',
  healthz: '/healthz',
  readyz: '/readyz',
  openapi: '/openapi.json',
  llmsTxt: '/llms.txt',
  robotsTxt: '/robots.txt',
  home: '/',
  developers: '/developers',
  /** Followed by `/{id}`. */
  review: '/reviews',
  sitemap: '/sitemap.xml',
  /** Followed by `/{n}.xml`. */
  sitemapParts: '/sitemaps',
  assets: '/assets',
} as const;

/** The published datasets, by the name of their representation in a catalog revision. */
export const DATASETS = {
  reviews: { path: PATHS.reviews, contentType: 'application/json' },
  insights: { path: PATHS.insights, contentType: 'application/json' },
  feedJson: { path: PATHS.feedJson, contentType: 'application/feed+json' },
  feedAtom: { path: PATHS.feedAtom, contentType: 'application/atom+xml' },
} as const;
export type DatasetName = keyof typeof DATASETS;

/** The datasets that are WebSub topics, in the order the hub announces them and the docs list them. */
export const TOPICS = ['feedAtom', 'feedJson', 'reviews'] as const satisfies readonly DatasetName[];
export type TopicName = (typeof TOPICS)[number];
export const isTopic = (name: DatasetName): name is TopicName => (TOPICS as readonly string[]).includes(name);

/** Absolute URLs of this service, derived from PUBLIC_BASE_URL (no trailing slash). */
export interface Links {
  base: string;
  hub: string;
  reviewsJson: string;
  feedJson: string;
  feedAtom: string;
  review(id: string): string;
}

export function links(publicBaseUrl: string): Links {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    base,
    hub: `${base}${PATHS.hub}`,
    reviewsJson: `${base}${PATHS.reviews}`,
    feedJson: `${base}${PATHS.feedJson}`,
    feedAtom: `${base}${PATHS.feedAtom}`,
    review: (id) => `${base}${PATHS.review}/${id}`,
  };
}

/** The absolute URL of a topic. */
export const topicUrl = (l: Links, name: TopicName) => `${l.base}${DATASETS[name].path}`;

/** The WebSub discovery header for a topic (RFC 8288 Link, hub then self): on the topic's GET and on every delivery. */
export const linkHeader = (l: Links, topic: string) => `<${l.hub}>; rel="hub", <${topic}>; rel="self"`;
