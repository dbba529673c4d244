import type { Business, JsonFeed, Links, Review } from '../../domain/index.js';
import { reviewTags, reviewTitle } from './review-title.js';

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of the newest reviews, with a `_review` extension. */
export function renderJsonFeed(business: Business, reviews: readonly Review[], l: Links): JsonFeed {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: `${business.name} — customer reviews`,
    home_page_url: `${l.base}/`,
    feed_url: l.feedJson,
    description: `Newest verified customer reviews of ${business.name}.`,
    language: 'en',
    authors: [{ name: business.name, ...(business.url ? { url: business.url } : {}) }],
    hubs: [{ type: 'WebSub', url: l.hub }],
    items: reviews.map((r) => ({
      id: r.id,
      url: r.url,
      ...(r.source_url ? { external_url: r.source_url } : {}),
      title: reviewTitle(r),
      content_text: r.text ?? `Rated ${r.rating} out of 5 (no written review).`,
      date_published: r.published_at,
      date_modified: r.updated_at,
      authors: [{ name: r.author, ...(r.author_avatar_url ? { avatar: r.author_avatar_url } : {}) }],
      ...(r.language ? { language: r.language } : {}),
      tags: reviewTags(r),
      _review: {
        about: 'https://github.com/reviewcast/reviewcast#json-feed-extension',
        rating: r.rating,
        date: r.date,
        source: r.source,
        technicians: r.technicians,
        services: r.services,
        owner_reply: r.owner_reply,
      },
    })),
  };
}
