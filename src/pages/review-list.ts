import type { Catalog } from '../catalog/index.js';
import { type ErrorIssue, PATHS, type Review, SEARCH_LIMIT_DEFAULT } from '../domain/index.js';
import { formatCount } from './format.js';
import { type FormValues, firstPageValues, PAGE_PARAM, viewQueryString } from './home-query.js';
import { type Html, html, jsonScript } from './html.js';
import { type CardContext, cardTemplate, reviewCard } from './review-card.js';

export interface ListState {
  values: FormValues;
  /** Null when the filters are invalid (nothing was searched). */
  result: {
    matched: number;
    reviews: readonly Review[];
    /** The page's number for display; null when the URL has a cursor but no number. */
    page: number | null;
    pageSize: number;
    filtered: boolean;
    /** The search's next_cursor: where "Older" leads; null on the last page. */
    nextCursor: string | null;
  } | null;
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
  // A cursor can outlive the reviews after it (removed by a later import): then this page is empty.
  if (r.reviews.length === 0) return `No more reviews after this point; ${formatCount(r.matched)} match in all.`;
  const of = `of ${formatCount(r.matched)} ${r.matched === 1 ? 'review' : 'reviews'}`;
  if (r.page === null) return `Showing ${formatCount(r.reviews.length)} ${of}`;
  // The number is the page's place when its link was made; reviews added since can shift it a little.
  const first = Math.min((r.page - 1) * r.pageSize + 1, r.matched - r.reviews.length + 1);
  return `Showing ${formatCount(first)}–${formatCount(first + r.reviews.length - 1)} ${of}`;
}

/**
 * "← Newest" goes back to the first page (the browser's Back button walks the trail), "Older →" carries
 * the search's next_cursor. enhance.js rewrites both after a filter change or a page it loads itself.
 */
function pager(root: string, v: FormValues, r: NonNullable<ListState['result']>): Html {
  const pages = Math.max(1, Math.ceil(r.matched / r.pageSize));
  const first = firstPageValues(v);
  const paged = v.cursor !== undefined;
  const next = r.nextCursor === null ? null : viewQueryString({ ...first, cursor: r.nextCursor }, (r.page ?? 1) + 1);
  const info = r.page === null ? '' : `Page ${formatCount(Math.min(r.page, pages))} of ${formatCount(pages)}`;
  return html`<nav class="pager" aria-label="Pages of reviews" data-page-size="${r.pageSize}" data-page-param="${PAGE_PARAM}"${paged || next ? '' : html` hidden`}>
  <a class="button button-quiet" rel="first" data-slot="prev" href="${root}/?${viewQueryString(first)}#reviews"${paged ? '' : html` hidden`}>← Newest</a>
  <span class="pager-info" data-slot="page-info">${info}</span>
  <a class="button button-quiet" rel="next" data-slot="next" href="${next === null ? `${root}/#reviews` : `${root}/?${next}#reviews`}"${next ? '' : html` hidden`}>Older →</a>
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
      ${pager(ctx.root, s.values, s.result ?? { matched: 0, reviews: [], page: 1, pageSize: SEARCH_LIMIT_DEFAULT, filtered: true, nextCursor: null })}
    </div>
  </div>
  ${cardTemplate(ctx)}
  <script type="application/json" id="review-names">${jsonScript(ctx.names)}</script>
</section>`;
}
