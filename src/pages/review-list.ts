import type { Catalog } from '../catalog/index.js';
import { type ErrorIssue, PATHS, type Review, SEARCH_LIMIT_DEFAULT } from '../domain/index.js';
import { formatCount } from './format.js';
import { type FormValues, viewQueryString } from './home-query.js';
import { type Html, html, jsonScript } from './html.js';
import { type CardContext, cardTemplate, reviewCard } from './review-card.js';

export interface ListState {
  values: FormValues;
  /** Null when the filters are invalid (nothing was searched). */
  result: { matched: number; reviews: readonly Review[]; page: number; pageSize: number; filtered: boolean } | null;
  issues: ErrorIssue[];
}

type Option = readonly [value: string, label: string];

/**
 * A select whose current value is always representable: a value from the URL that is not one of the
 * options (a technician's alias, a decimal minimum) is shown as itself rather than silently as "Any".
 */
function select(
  id: string,
  name: string,
  label: string,
  options: readonly Option[],
  current: string | undefined,
  resolve?: (v: string) => string | null,
): Html {
  const chosen = current === undefined ? '' : (resolve?.(current) ?? current);
  const known = chosen === '' || options.some(([v]) => v === chosen);
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <select id="${id}" name="${name}">
      ${known ? '' : html`<option value="${current}" selected>${current}</option>`}
      ${options.map(([v, l]) => html`<option value="${v}"${v === chosen ? html` selected` : ''}>${l}</option>`)}
    </select>
  </div>`;
}

function filterForm(c: Catalog, ctx: CardContext, v: FormValues): Html {
  const b = c.business;
  return html`<form class="filters" id="review-filters" method="get" action="${ctx.root}/#reviews" role="search" aria-label="Filter reviews" data-api="${ctx.root}${PATHS.search}">
  <div class="field field-wide">
    <label for="f-query">Search the reviews</label>
    <input type="search" id="f-query" name="query" value="${v.query ?? ''}" maxlength="200" placeholder="e.g. water heater" autocomplete="off">
  </div>
  ${select('f-rating', 'rating', 'Stars', [['', 'Any'], ...[5, 4, 3, 2, 1].map((n): Option => [String(n), `${n} star${n === 1 ? '' : 's'}`])], v.rating)}
  ${select('f-min', 'min_rating', 'At least', [['', 'Any'], ...[4, 3, 2].map((n): Option => [String(n), `${n} stars & up`])], v.min_rating)}
  ${b.technicians.length > 0 && select('f-tech', 'mentions_technician', 'Technician', [['', 'Anyone'], ...b.technicians.map((t): Option => [t.id, t.name])], v.mentions_technician, (x) => c.attribution.technicians.resolve(x))}
  ${b.services.length > 0 && select('f-service', 'mentions_service', 'Service', [['', 'Any service'], ...b.services.map((s): Option => [s.id, s.name])], v.mentions_service, (x) => c.attribution.services.resolve(x))}
  <div class="field"><label for="f-since">From</label><input type="date" id="f-since" name="since" value="${v.since ?? ''}"></div>
  <div class="field"><label for="f-until">To</label><input type="date" id="f-until" name="until" value="${v.until ?? ''}"></div>
  ${v.limit !== undefined && html`<input type="hidden" name="limit" value="${v.limit}">`}
  <div class="filter-actions">
    <button type="submit" class="button">Show reviews</button>
    <a class="button button-quiet" href="${ctx.root}/#reviews" data-clear>Clear filters</a>
  </div>
</form>`;
}

function countText(r: NonNullable<ListState['result']>): string {
  if (r.matched === 0) return r.filtered ? 'No reviews match these filters.' : 'No reviews have been published yet.';
  const first = (r.page - 1) * r.pageSize + 1;
  if (first > r.matched) return `There are only ${formatCount(r.matched)} matching reviews; this page is past the last one.`;
  return `Showing ${formatCount(first)}–${formatCount(first + r.reviews.length - 1)} of ${formatCount(r.matched)} ${r.matched === 1 ? 'review' : 'reviews'}`;
}

/** Newer/older links; enhance.js rewrites them after a filter change (it always shows the first page). */
function pager(root: string, v: FormValues, r: NonNullable<ListState['result']>): Html {
  const pages = Math.max(1, Math.ceil(r.matched / r.pageSize));
  const href = (p: number) => `${root}/?${viewQueryString(v, p)}#reviews`;
  return html`<nav class="pager" aria-label="Pages of reviews" data-page-size="${r.pageSize}"${pages > 1 ? '' : html` hidden`}>
  <a class="button button-quiet" rel="prev" data-slot="prev" href="${href(Math.min(r.page - 1, pages))}"${r.page > 1 ? '' : html` hidden`}>← Newer</a>
  <span class="pager-info" data-slot="page-info">Page ${formatCount(Math.min(r.page, pages))} of ${formatCount(pages)}</span>
  <a class="button button-quiet" rel="next" data-slot="next" href="${href(r.page + 1)}"${r.page < pages ? '' : html` hidden`}>Older →</a>
</nav>`;
}

export function reviewsSection(c: Catalog, ctx: CardContext, s: ListState): Html {
  return html`<section class="reviews" id="reviews" aria-labelledby="reviews-heading">
  <h2 id="reviews-heading">Customer reviews</h2>
  <div class="reviews-layout">
    ${filterForm(c, ctx, s.values)}
    <div>
      <div class="form-errors" id="filter-errors" role="alert"${s.issues.length ? '' : html` hidden`}>
        <p>These filters cannot be used:</p>
        <ul>${s.issues.map((i) => html`<li>${i.path.join('.') || 'query'}: ${i.message}</li>`)}</ul>
      </div>
      <p class="result-count" id="result-count" role="status">${s.result ? countText(s.result) : 'Correct the filters to see reviews.'}</p>
      <ol class="review-list" id="review-list">
        ${s.result?.reviews.map((r) => html`<li>${reviewCard(r, ctx)}</li>`)}
      </ol>
      ${pager(ctx.root, s.values, s.result ?? { matched: 0, reviews: [], page: 1, pageSize: SEARCH_LIMIT_DEFAULT, filtered: true })}
    </div>
  </div>
  ${cardTemplate(ctx)}
  <script type="application/json" id="review-names">${jsonScript(ctx.names)}</script>
</section>`;
}
