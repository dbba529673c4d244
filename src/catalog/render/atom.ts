import { create } from 'xmlbuilder2';
import type { Business, Links, Review } from '../../domain/index.js';
import { reviewTags, reviewTitle } from './review-title.js';

// Characters XML 1.0 forbids even when escaped, plus lone surrogates: dropped so the feed stays well-formed.
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const xmlSafe = (s: string) => s.replace(INVALID_XML, '');

/** Atom 1.0 (RFC 4287) of the newest reviews, with self and hub links for WebSub discovery. */
export function renderAtom(business: Business, reviews: readonly Review[], l: Links, updated: string): string {
  const feedUpdated = reviews.reduce(
    // biome-ignore lint/complexity/useMathMinMax: ISO-8601 strings, compared as text
    (max, r) => (r.updated_at > max ? r.updated_at : max),
    reviews.length ? reviews[0].updated_at : updated,
  );
  const feed = create({ version: '1.0', encoding: 'utf-8' }).ele('http://www.w3.org/2005/Atom', 'feed');
  feed.ele('id').txt(l.feedAtom);
  feed.ele('title').txt(xmlSafe(`${business.name} — customer reviews`));
  feed.ele('subtitle').txt(xmlSafe(`Newest verified customer reviews of ${business.name}.`));
  feed.ele('updated').txt(feedUpdated);
  feed.ele('link', { rel: 'self', type: 'application/atom+xml', href: l.feedAtom });
  feed.ele('link', { rel: 'hub', href: l.hub });
  feed.ele('link', { rel: 'alternate', type: 'text/html', href: `${l.base}/` });
  feed.ele('author').ele('name').txt(xmlSafe(business.name));
  feed.ele('generator', { uri: 'https://github.com/reviewcast/reviewcast' }).txt('Reviewcast');
  for (const r of reviews) {
    const entry = feed.ele('entry');
    entry.ele('id').txt(r.url);
    entry.ele('title').txt(xmlSafe(reviewTitle(r)));
    entry.ele('published').txt(r.published_at);
    entry.ele('updated').txt(r.updated_at);
    entry.ele('author').ele('name').txt(xmlSafe(r.author));
    entry.ele('link', { rel: 'alternate', type: 'text/html', href: r.url });
    if (r.source_url) entry.ele('link', { rel: 'via', href: r.source_url });
    for (const term of reviewTags(r)) entry.ele('category', { term });
    entry.ele('content', { type: 'text' }).txt(xmlSafe(r.text ?? `Rated ${r.rating} out of 5 (no written review).`));
  }
  return feed.end({ prettyPrint: false });
}
