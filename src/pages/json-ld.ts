import type { Catalog } from '../catalog/index.js';
import type { Business, Review } from '../domain/index.js';

// schema.org JSON-LD (the only camelCase output, per the contract). Numbers are copied from the
// catalog's aggregate rating, so they equal /reviews.json's to the digit.

const DAYS: Record<string, string> = {
  Mo: 'Monday',
  Tu: 'Tuesday',
  We: 'Wednesday',
  Th: 'Thursday',
  Fr: 'Friday',
  Sa: 'Saturday',
  Su: 'Sunday',
};
const AREA_TYPES: Record<string, string> = {
  city: 'City',
  county: 'AdministrativeArea',
  region: 'AdministrativeArea',
  neighborhood: 'Place',
  postal_code: 'Place',
};

/** Drops null, undefined and empty arrays so the output only states what is known. */
function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v != null && !(Array.isArray(v) && v.length === 0))) as Partial<T>;
}

function address(b: Business) {
  const a = b.address;
  if (!a) return undefined;
  return compact({
    '@type': 'PostalAddress',
    streetAddress: a.street_address,
    addressLocality: a.locality,
    addressRegion: a.region,
    postalCode: a.postal_code,
    addressCountry: a.country,
  });
}

/** The business as a node: its schema.org subtype, contact, area served and the aggregate rating. */
export function businessNode(c: Catalog): Record<string, unknown> {
  const b = c.business;
  const a = c.aggregateRating;
  return compact({
    '@type': b.schema_type,
    '@id': `${c.links.base}/#business`,
    name: b.name,
    description: b.description,
    url: b.url ?? `${c.links.base}/`,
    telephone: b.telephone,
    email: b.email,
    address: address(b),
    geo: b.geo ? { '@type': 'GeoCoordinates', latitude: b.geo.latitude, longitude: b.geo.longitude } : null,
    openingHoursSpecification: b.hours.map((h) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: h.days.map((d) => `https://schema.org/${DAYS[d]}`),
      opens: h.opens,
      closes: h.closes,
    })),
    areaServed: b.service_areas.map((s) => ({ '@type': AREA_TYPES[s.kind] ?? 'Place', name: s.name })),
    sameAs: [...b.same_as, ...b.profiles.map((p) => p.url)],
    // schema.org has no AggregateRating of nothing: a business without reviews states none.
    aggregateRating:
      a.rating_count > 0
        ? {
            '@type': 'AggregateRating',
            ratingValue: a.rating_value,
            reviewCount: a.review_count,
            ratingCount: a.rating_count,
            bestRating: a.best_rating,
            worstRating: a.worst_rating,
          }
        : null,
  });
}

export function reviewNode(r: Review): Record<string, unknown> {
  return compact({
    '@type': 'Review',
    '@id': r.url,
    url: r.url,
    name: r.title,
    author: { '@type': 'Person', name: r.author },
    datePublished: r.date,
    dateModified: r.updated_at,
    reviewBody: r.text,
    inLanguage: r.language,
    reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
  });
}

/** `/`: the business with the reviews visible on the page. */
export const homeJsonLd = (c: Catalog, visible: readonly Review[]) => ({
  '@context': 'https://schema.org',
  ...businessNode(c),
  ...(visible.length ? { review: visible.map(reviewNode) } : {}),
});

/** `/reviews/{id}`: the review, about the business. */
export const reviewJsonLd = (c: Catalog, r: Review) => ({
  '@context': 'https://schema.org',
  ...reviewNode(r),
  itemReviewed: businessNode(c),
});
