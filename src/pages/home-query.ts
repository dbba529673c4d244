import { type ErrorIssue, SEARCH_PARAMS, type SearchParam, type SearchQuery } from '../domain/index.js';
import { parseSearchParams } from '../http/index.js';

/**
 * The review page's own parameter: the number of the page a `cursor` leads to, for display only
 * ("Page 3 of 9"). Pages are found by the search API's keyset `cursor`, never by this number.
 */
export const PAGE_PARAM = 'page';
const MAX_PAGE = 10_000;

/** What the form shows: each parameter as the visitor typed it (so an invalid value can be corrected). */
export type FormValues = Partial<Record<SearchParam, string>>;

export type HomeQuery =
  /** `page` is null when a cursor came without one (a hand-made URL): the page then shows no ordinal. */
  | { ok: true; query: SearchQuery; page: number | null; values: FormValues; filtered: boolean }
  /** An old offset link (`?page=N`, no cursor): answered by a redirect to the first page of its filters. */
  | { ok: 'first-page'; values: FormValues }
  | { ok: false; issues: ErrorIssue[]; values: FormValues };

/**
 * A plain GET form submits every field, the empty ones as `name=`; an empty field means "no filter".
 * Dropping those is the only translation done here — the rules are `parseSearchParams`', the same as
 * /api/reviews/search, so the page and the API accept and reject exactly the same filters.
 */
export function parseHomeQuery(raw: Record<string, unknown>): HomeQuery {
  const given: Record<string, unknown> = {};
  const values: FormValues = {};
  for (const key of SEARCH_PARAMS) {
    const v = raw[key];
    if (v === undefined || v === '') continue;
    given[key] = v;
    values[key] = Array.isArray(v) ? String(v[0]) : String(v);
  }
  const parsed = parseSearchParams(given);
  const issues = 'issues' in parsed ? [...parsed.issues] : [];
  const page = parsePage(raw[PAGE_PARAM], issues);
  if ('issues' in parsed || page === false) return { ok: false, issues, values };
  const filtered = Object.keys(given).some((k) => k !== 'limit' && k !== 'cursor');
  if (parsed.query.cursor === undefined)
    return page === null ? { ok: true, query: parsed.query, page: 1, values, filtered } : { ok: 'first-page', values };
  return { ok: true, query: parsed.query, page, values, filtered };
}

/** The page number: null when absent, false (with an issue) when not a whole number in range. */
function parsePage(v: unknown, issues: ErrorIssue[]): number | null | false {
  if (v === undefined || v === '') return null;
  const n = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : NaN;
  if (n >= 1 && n <= MAX_PAGE) return n;
  issues.push({ path: [PAGE_PARAM], code: 'invalid_page', message: `"${PAGE_PARAM}" must be a whole number from 1 to ${MAX_PAGE}` });
  return false;
}

/**
 * Query string of a view in a fixed parameter order (links, pager, cache keys): `rating=5&cursor=…&page=2`.
 * The page number is written only beside a cursor; without one a view is always the first page.
 */
export function viewQueryString(values: FormValues, page: number | null = null): string {
  const p = new URLSearchParams();
  for (const key of SEARCH_PARAMS) if (values[key] !== undefined) p.set(key, values[key]!);
  if (values.cursor !== undefined && page !== null) p.set(PAGE_PARAM, String(page));
  return p.toString();
}

/** The filters of a view without its position: the first page of the same list. */
export const firstPageValues = ({ cursor: _, ...filters }: FormValues): FormValues => filters;
