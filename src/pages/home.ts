import type { Catalog } from '../catalog/index.js';
import { businessHero, placeOf } from './business-header.js';
import { formatCount, formatRating } from './format.js';
import type { HomeQuery } from './home-query.js';
import { type Html, html } from './html.js';
import { aspectsSection, faqSection, summarySection, techniciansSection } from './insights-sections.js';
import { homeJsonLd } from './json-ld.js';
import { layout, rootPath } from './layout.js';
import { cardContext, type Names } from './review-card.js';
import { type ListState, reviewsSection } from './review-list.js';

/** `/`: the business, its rating and insights, and one page of its reviews filtered as the URL says. */
export function renderHome(c: Catalog, names: Names, q: Exclude<HomeQuery, { ok: 'first-page' }>, canonicalQuery: string): Html {
  const root = rootPath(c);
  const ctx = cardContext(c, names, 3);
  let state: ListState;
  if (q.ok) {
    // One page from the search's keyset cursor, exactly as /api/reviews/search answers it.
    const found = c.search(q.query);
    state = {
      values: q.values,
      issues: [],
      result: {
        matched: found.matched,
        reviews: found.reviews,
        page: q.page,
        pageSize: q.query.limit,
        filtered: q.filtered,
        nextCursor: found.next_cursor,
      },
    };
  } else {
    state = { values: q.values, issues: q.issues, result: null };
  }
  const b = c.business;
  const a = c.aggregateRating;
  const place = placeOf(c);
  const rated =
    a.rating_count > 0 ? ` Rated ${formatRating(a.rating_value)} out of 5 from ${formatCount(a.rating_count)} verified reviews.` : '';
  const body = html`${businessHero(c, root, q.ok ? q.query.rating : undefined)}
<div class="wrap content">
  ${summarySection(c, root)}
  <div class="insight-grid">
    ${aspectsSection(c)}
    ${techniciansSection(c, root)}
  </div>
  ${reviewsSection(c, ctx, state)}
  ${faqSection(c, root)}
</div>`;
  return layout(c, {
    title: `${b.name} reviews${place ? ` — ${place}` : ''}`,
    description: `${b.description ?? `Verified customer reviews of ${b.name}.`}${rated}`,
    canonical: `${c.links.base}/${canonicalQuery ? `?${canonicalQuery}` : ''}`,
    ogType: 'website',
    jsonLd: homeJsonLd(c, state.result?.reviews ?? []),
    noindex: !q.ok || q.filtered || q.query.cursor !== undefined,
    script: true,
    body,
  });
}
