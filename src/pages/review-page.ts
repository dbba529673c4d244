import type { Catalog } from '../catalog/index.js';
import type { Review } from '../domain/index.js';
import { formatCount, formatDate, formatRating, sourceLabel, stars } from './format.js';
import { type Html, html } from './html.js';
import { reviewJsonLd } from './json-ld.js';
import { layout, rootPath } from './layout.js';
import { cardContext, type Names, reviewCard } from './review-card.js';

const VERIFICATION: Record<string, string> = {
  platform: 'confirmed by the review platform',
  crm_job_match: 'matched to a completed job',
  manual: 'checked by the business',
};

const POLARITY_LABEL: Record<string, string> = { positive: 'praised', negative: 'criticised', neutral: 'mentioned', conflict: 'mixed' };

/** What the analysis found in this review, as labelled chips (nothing when it found nothing). */
function aspectsOf(c: Catalog, r: Review): Html {
  const found = c.analysisOf(r.id)?.aspects ?? [];
  if (found.length === 0) return html``;
  const labels = new Map(c.insights.aspects.map((a) => [a.id, a.label]));
  return html`<section class="panel" aria-labelledby="review-aspects-heading">
  <h2 id="review-aspects-heading" class="mini-heading">Topics in this review</h2>
  <ul class="chips">${found.map((a) => html`<li class="chip chip-${a.polarity}">${labels.get(a.id) ?? a.id}: ${POLARITY_LABEL[a.polarity]}</li>`)}</ul>
</section>`;
}

/** `/reviews/{id}`: one review, the contract's `url`. */
export function renderReviewPage(c: Catalog, names: Names, r: Review): Html {
  const root = rootPath(c);
  const b = c.business;
  const a = c.aggregateRating;
  const excerpt = r.text ? (r.text.length > 160 ? `${r.text.slice(0, 157).trimEnd()}…` : r.text) : `Rated ${r.rating} out of 5.`;
  const body = html`<div class="wrap narrow permalink">
  <p class="breadcrumb"><a href="${root}/#reviews">← All reviews of ${b.name}</a></p>
  <h1>Review of ${b.name}</h1>
  <div class="panel">${reviewCard(r, cardContext(c, names, 2))}</div>
  ${aspectsOf(c, r)}
  <dl class="facts panel">
    <div><dt>Rating</dt><dd>${r.rating} out of 5</dd></div>
    <div><dt>Date</dt><dd>${formatDate(r.date)}</dd></div>
    <div><dt>Source</dt><dd>${r.source_url ? html`<a href="${r.source_url}" rel="nofollow noopener">${sourceLabel(r.source)}</a>` : sourceLabel(r.source)}</dd></div>
    <div><dt>Verification</dt><dd>${VERIFICATION[r.verification.method] ?? r.verification.method}</dd></div>
  </dl>
  <aside class="panel" aria-labelledby="about-heading">
    <h2 id="about-heading" class="mini-heading">About ${b.name}</h2>
    ${a.rating_count > 0 && html`<p class="mini-score">${stars(a.rating_value, `Average ${formatRating(a.rating_value)} out of 5 stars`)} <strong>${formatRating(a.rating_value)}</strong> from ${formatCount(a.rating_count)} verified ratings</p>`}
    <p><a class="button" href="${root}/#reviews">Read all reviews</a></p>
  </aside>
</div>`;
  return layout(c, {
    title: `${r.author}: ${r.rating}★ review of ${b.name}`,
    description: excerpt,
    canonical: r.url,
    ogType: 'article',
    jsonLd: reviewJsonLd(c, r),
    body,
  });
}
