import { type ErrorIssue, SEARCH_PARAMS, type SearchParam, type SearchQuery } from '../domain/index.js';
import { parseSearchParams } from '../http/index.js';

/** The review page's own parameter: which page of the filtered list (the search API has only `limit`). */
export const PAGE_PARAM = 'page';
const MAX_PAGE = 10_000;

/** What the form shows: each parameter as the visitor typed it (so an invalid value can be corrected). */
export type FormValues = Partial<Record<SearchParam, string>>;

export type HomeQuery =
  | { ok: true; query: SearchQuery; page: number; values: FormValues; filtered: boolean }
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
  if ('issues' in parsed || page === null) return { ok: false, issues, values };
  return { ok: true, query: parsed.query, page, values, filtered: Object.keys(given).some((k) => k !== 'limit') };
}

function parsePage(v: unknown, issues: ErrorIssue[]): number | null {
  if (v === undefined || v === '') return 1;
  const n = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : NaN;
  if (n >= 1 && n <= MAX_PAGE) return n;
  issues.push({ path: [PAGE_PARAM], code: 'invalid_page', message: `"${PAGE_PARAM}" must be a whole number from 1 to ${MAX_PAGE}` });
  return null;
}

/** Query string of a view in a fixed parameter order (links, pager, cache keys): `rating=5&page=2`. */
export function viewQueryString(values: FormValues, page = 1): string {
  const p = new URLSearchParams();
  for (const key of SEARCH_PARAMS) if (values[key] !== undefined) p.set(key, values[key]!);
  if (page > 1) p.set(PAGE_PARAM, String(page));
  return p.toString();
}
