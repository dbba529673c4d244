import type { Catalog } from '../catalog/index.js';
import { clock, dayRange, formatCount, formatPct, formatRating, plural, sourceLabel, stars } from './format.js';
import { type Html, html } from './html.js';
import { filterHref } from './review-card.js';

/** "HVACBusiness" → "HVAC Business", "Plumber" → "Plumber". */
export const humanType = (schemaType: string) => schemaType.replace(/([a-z])([A-Z])/g, '$1 $2');

export const placeOf = (c: Catalog) => [c.business.address?.locality, c.business.address?.region].filter(Boolean).join(', ');

/** The top of `/`: who the business is and how to reach it, beside its rating (right after the name on a phone). */
export function businessHero(c: Catalog, root: string, selectedRating: number | undefined): Html {
  const b = c.business;
  const place = placeOf(c);
  const a = b.address;
  const street = a && [a.street_address, [a.locality, a.region].filter(Boolean).join(', '), a.postal_code].filter(Boolean).join(' · ');
  return html`<section class="hero" aria-labelledby="business-name">
  <div class="wrap hero-grid">
    <div class="hero-intro">
      <p class="eyebrow">${humanType(b.schema_type)}${place && ` · ${place}`}</p>
      <h1 id="business-name">${b.name}</h1>
      ${b.description && html`<p class="lede">${b.description}</p>`}
    </div>
    ${scoreCard(c, root, selectedRating)}
    <div class="hero-details">
      <ul class="contact" aria-label="Contact">
        ${b.telephone && html`<li><span class="contact-label">Phone</span> <a href="tel:${b.telephone.replace(/[^\d+]/g, '')}">${b.telephone}</a></li>`}
        ${b.email && html`<li><span class="contact-label">Email</span> <a href="mailto:${b.email}">${b.email}</a></li>`}
        ${b.url && html`<li><span class="contact-label">Website</span> <a href="${b.url}" rel="noopener">${b.url.replace(/^https?:\/\//, '').replace(/\/$/, '')}</a></li>`}
        ${street && html`<li><span class="contact-label">Address</span> <address>${street}</address></li>`}
        ${b.hours.length > 0 && html`<li><span class="contact-label">Hours</span> ${b.hours.map((h, i) => html`${i > 0 && ' · '}${dayRange(h.days)} ${clock(h.opens)}–${clock(h.closes)}`)}</li>`}
      </ul>
      ${
        b.service_areas.length > 0 &&
        html`<h2 class="mini-heading" id="areas-heading">Service areas</h2>
      <ul class="chips" aria-labelledby="areas-heading">${b.service_areas.map((s) => html`<li class="chip">${s.name}</li>`)}</ul>`
      }
      ${
        b.profiles.length > 0 &&
        html`<p class="profiles">Also reviewed on ${b.profiles.map((p, i) => html`${i > 0 && (i === b.profiles.length - 1 ? ' and ' : ', ')}<a href="${p.url}" rel="noopener">${sourceLabel(p.platform)}</a>`)}.</p>`
      }
    </div>
  </div>
</section>`;
}

/** The aggregate rating with its 1–5 distribution; each row links to the list filtered to that rating. */
function scoreCard(c: Catalog, root: string, selectedRating: number | undefined): Html {
  const a = c.aggregateRating;
  const trend = c.insights.temporal.trend;
  return html`<aside class="score-card" aria-labelledby="rating-heading">
  <h2 id="rating-heading" class="mini-heading">Customer rating</h2>
  <p class="score"><span class="score-value">${formatRating(a.rating_value)}</span><span class="score-of">out of 5</span></p>
  ${stars(a.rating_value, `Average ${formatRating(a.rating_value)} out of 5 stars`)}
  <p class="score-count">${plural(a.rating_count, 'verified rating', 'verified ratings')} · ${plural(a.review_count, 'written review', 'written reviews')}</p>
  <ol class="distribution" aria-label="Ratings by stars; choose one to see those reviews">
    ${[5, 4, 3, 2, 1].map((n) => {
      const count = a.distribution[String(n) as '1'];
      const pct = a.rating_count ? (count / a.rating_count) * 100 : 0;
      return html`<li><a class="dist-row" href="${filterHref(root, 'rating', n)}" data-rating="${n}"${selectedRating === n ? html` aria-current="true"` : ''}>
        <span>${n} star${n === 1 ? '' : 's'}</span>
        <span class="bar" aria-hidden="true"><span class="bar-fill" style="width:${formatPct(pct)}%"></span></span>
        <span class="dist-count">${formatCount(count)}<span class="sr-only"> reviews, ${formatPct(pct)}%</span></span>
      </a></li>`;
    })}
  </ol>
  <dl class="score-facts">
    ${a.recent.rating_value !== null && html`<div><dt>Last ${a.recent.window_days} days</dt><dd>${formatRating(a.recent.rating_value)} from ${formatCount(a.recent.rating_count)}</dd></div>`}
    <div><dt>Owner replies</dt><dd>${formatPct(a.reply_rate * 100)}% of reviews</dd></div>
    ${c.reviews.length > 0 && html`<div><dt>Trend</dt><dd class="trend trend-${trend}">${trend.charAt(0).toUpperCase() + trend.slice(1)}</dd></div>`}
  </dl>
</aside>`;
}
