import type { Catalog } from '../catalog/index.js';
import { type AspectInsight, PATHS } from '../domain/index.js';
import { formatCount, formatDate, formatPct, formatRating, stars } from './format.js';
import { type Html, html } from './html.js';
import { filterHref } from './review-card.js';

/** Summary in words, with the pull quote attributed to its review. */
export function summarySection(c: Catalog, root: string): Html {
  const i = c.insights;
  if (!i.summary) return html``;
  const quoted = i.pull_quote_review_id ? c.review(i.pull_quote_review_id) : undefined;
  return html`<section class="panel summary" aria-labelledby="summary-heading">
  <h2 id="summary-heading">What customers say</h2>
  ${
    i.pull_quote &&
    html`<figure class="pull-quote">
    <blockquote><p>${i.pull_quote}</p></blockquote>
    ${quoted && html`<figcaption>${quoted.author}, <a href="${root}${PATHS.review}/${quoted.id}">${formatDate(quoted.date)}</a></figcaption>`}
  </figure>`
  }
  <p class="summary-text">${i.summary}</p>
</section>`;
}

const SEGMENTS = [
  ['positive', 'pos'],
  ['neutral', 'neu'],
  ['conflict', 'mix'],
  ['negative', 'neg'],
] as const;

const pctOf = (a: AspectInsight, s: (typeof SEGMENTS)[number][0]) => a[`${s}_pct`];

/** One stacked bar per aspect: how the reviews that discuss it feel about it. */
export function aspectsSection(c: Catalog): Html {
  const aspects = c.insights.aspects.filter((a) => a.mention_count > 0);
  if (aspects.length === 0) return html``;
  return html`<section class="panel" aria-labelledby="aspects-heading">
  <h2 id="aspects-heading">Sentiment by topic</h2>
  <p class="panel-note">Share of the reviews that discuss each topic. Mixed means both praise and complaint.</p>
  <ul class="legend" aria-hidden="true">${SEGMENTS.map(([name, cls]) => html`<li><span class="swatch ${cls}"></span>${name === 'conflict' ? 'mixed' : name}</li>`)}</ul>
  <ul class="aspects">
    ${aspects.map(
      (a) => html`<li class="aspect">
      <div class="aspect-head"><span class="aspect-label">${a.label}</span><span class="aspect-stat">${formatPct(a.positive_pct)}% positive · ${formatCount(a.mention_count)} reviews</span></div>
      <div class="sentiment-bar" role="img" aria-label="${a.label}: ${SEGMENTS.map(([s]) => `${formatPct(pctOf(a, s))}% ${s === 'conflict' ? 'mixed' : s}`).join(', ')} of ${formatCount(a.mention_count)} reviews">${SEGMENTS.map(([s, cls]) => pctOf(a, s) > 0 && html`<span class="${cls}" style="width:${formatPct(pctOf(a, s))}%"></span>`)}</div>
    </li>`,
    )}
  </ul>
</section>`;
}

/** Technicians named in reviews, with their average rating; each links to their reviews. */
export function techniciansSection(c: Catalog, root: string): Html {
  const techs = c.insights.entities.technicians.filter((t) => t.review_count > 0);
  if (techs.length === 0) return html``;
  const roles = new Map(c.business.technicians.map((t) => [t.id, t.role]));
  return html`<section class="panel" aria-labelledby="team-heading">
  <h2 id="team-heading">Technicians</h2>
  <p class="panel-note">Ratings of the reviews that name each technician.</p>
  <table class="team">
    <thead><tr><th scope="col">Name</th><th scope="col">Rating</th><th scope="col" class="num">Reviews</th><th scope="col" class="num col-positive">Positive</th></tr></thead>
    <tbody>
    ${techs.map(
      (t) => html`<tr>
      <th scope="row"><a href="${filterHref(root, 'mentions_technician', t.id)}">${t.name}</a>${roles.get(t.id) && html`<span class="role">${roles.get(t.id)}</span>`}</th>
      <td>${t.avg_rating === null ? '—' : html`<span class="rating-cell">${stars(t.avg_rating, null)}<span class="rating-num">${formatRating(t.avg_rating)}</span></span>`}</td>
      <td class="num">${formatCount(t.review_count)}</td>
      <td class="num col-positive">${formatPct(t.positive_pct)}%</td>
    </tr>`,
    )}
    </tbody>
  </table>
</section>`;
}

/** Questions answered from the reviews, each with links to reviews that support it. */
export function faqSection(c: Catalog, root: string): Html {
  const faq = c.insights.faq;
  if (faq.length === 0) return html``;
  return html`<section class="faq" id="faq" aria-labelledby="faq-heading">
  <h2 id="faq-heading">Frequently asked questions</h2>
  <div class="faq-list">
  ${faq.map((f) => {
    const sources = f.supporting_review_ids.slice(0, 3).flatMap((id) => c.review(id) ?? []);
    return html`<details class="faq-item">
    <summary>${f.question}</summary>
    <p>${f.answer}</p>
    ${
      sources.length > 0 &&
      html`<p class="faq-sources">Based on reviews such as ${sources.map((r, i) => html`${i > 0 && ', '}<a href="${root}${PATHS.review}/${r.id}">${r.author}, ${formatDate(r.date)}</a>`)}.</p>`
    }
  </details>`;
  })}
  </div>
</section>`;
}
