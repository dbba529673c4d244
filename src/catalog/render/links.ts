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
    hub: `${base}/api/websub/hub`,
    reviewsJson: `${base}/reviews.json`,
    feedJson: `${base}/api/feed.json`,
    feedAtom: `${base}/feed.xml`,
    review: (id) => `${base}/reviews/${id}`,
  };
}

/** The WebSub discovery header for a topic (RFC 8288 Link, hub then self). */
export const websubLinkHeader = (l: Links, topic: string) => `<${l.hub}>; rel="hub", <${topic}>; rel="self"`;
