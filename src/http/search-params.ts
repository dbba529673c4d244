import {
  BOOLEAN_SEARCH_PARAMS,
  type ErrorIssue,
  NUMERIC_SEARCH_PARAMS,
  SEARCH_PARAMS,
  type SearchQuery,
  SearchQuerySchema,
  sinceAfterUntil,
  toErrorIssues,
} from '../domain/index.js';

const BOOLEAN_TEXT = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * REST query string → the shared search schema. Only the translation lives here (repeated
 * parameters, numbers written as text); every rule is the schema's, so REST and MCP reject alike.
 * Unknown parameters are ignored.
 */
export function parseSearchParams(raw: Record<string, unknown>): { query: SearchQuery } | { issues: ErrorIssue[] } {
  const issues: ErrorIssue[] = [];
  const input: Record<string, unknown> = {};
  for (const key of SEARCH_PARAMS) {
    const value = raw[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      issues.push({ path: [key], code: 'repeated_parameter', message: `"${key}" was given ${value.length} times; give it at most once` });
      continue;
    }
    const text = String(value);
    if (key === 'query' && text.trim() === '') continue;
    input[key] =
      NUMERIC_SEARCH_PARAMS.has(key) && NUMBER.test(text.trim())
        ? Number(text)
        : BOOLEAN_SEARCH_PARAMS.has(key) && BOOLEAN_TEXT.has(text)
          ? BOOLEAN_TEXT.get(text)
          : text;
  }
  const parsed = SearchQuerySchema.safeParse(input);
  if (!parsed.success) {
    issues.push(...toErrorIssues(parsed.error.issues));
    const range = sinceAfterUntil(input.since, input.until);
    if (range && !issues.some((i) => i.path[0] === 'since')) issues.push(range);
  }
  return issues.length ? { issues } : { query: (parsed as { data: SearchQuery }).data };
}

/**
 * The key of one query's response within a revision: JSON of the values in a fixed order, so two
 * different queries never share a key whatever characters their values contain (a value may hold any
 * separator a plain join would use).
 */
export const searchKey = (q: SearchQuery) => JSON.stringify(SEARCH_PARAMS.map((k) => q[k] ?? null));

/**
 * The canonical query string of a query (parameters in a fixed order, defaults left out) with another
 * cursor: the target of `Link: rel="next"`.
 */
export function searchQueryString(q: Partial<Record<(typeof SEARCH_PARAMS)[number], unknown>>, cursor: string): string {
  const params = new URLSearchParams();
  for (const key of SEARCH_PARAMS) {
    const value = key === 'cursor' ? cursor : q[key];
    if (value === undefined || (key === 'sort' && value === 'newest')) continue;
    params.set(key, String(value));
  }
  return params.toString();
}
