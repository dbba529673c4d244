import { z } from 'zod';
import { type ErrorIssue, SEARCH_PARAMS, type SearchQuery, SearchQuerySchema, sinceAfterUntil, toErrorIssues } from '../domain/index.js';

const BOOLEAN_TEXT = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const unwrapped = (s: z.ZodType): z.ZodType =>
  s instanceof z.ZodOptional || s instanceof z.ZodDefault ? unwrapped(s.unwrap() as z.ZodType) : s;

/**
 * REST query string → the input of a query schema (search, since, changes). Only the translation lives
 * here: a repeated parameter is an issue, numbers and booleans written as text become values, the
 * schema's own fields are read and the rest ignored; every rule is the schema's, so REST and MCP reject alike.
 */
export function queryInput(raw: Record<string, unknown>, schema: z.ZodObject): { input: Record<string, unknown>; issues: ErrorIssue[] } {
  const issues: ErrorIssue[] = [];
  const input: Record<string, unknown> = {};
  for (const [key, kind] of fieldKinds(schema)) {
    const value = raw[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      issues.push({ path: [key], code: 'repeated_parameter', message: `"${key}" was given ${value.length} times; give it at most once` });
      continue;
    }
    const text = String(value);
    input[key] =
      kind === 'number' && NUMBER.test(text.trim())
        ? Number(text)
        : kind === 'boolean' && BOOLEAN_TEXT.has(text)
          ? BOOLEAN_TEXT.get(text)
          : text;
  }
  return { input, issues };
}

type FieldKind = 'number' | 'boolean' | 'other';
const kindsOf = new WeakMap<z.ZodObject, readonly (readonly [string, FieldKind])[]>();

/** A schema's fields with what text of theirs becomes, worked out once per schema instead of per request. */
function fieldKinds(schema: z.ZodObject): readonly (readonly [string, FieldKind])[] {
  let kinds = kindsOf.get(schema);
  if (!kinds) {
    kinds = Object.entries(schema.shape).map(([key, field]) => {
      const kind = unwrapped(field as z.ZodType);
      return [key, kind instanceof z.ZodNumber ? 'number' : kind instanceof z.ZodBoolean ? 'boolean' : 'other'] as const;
    });
    kindsOf.set(schema, kinds);
  }
  return kinds;
}

/** A query string parsed by `schema`: its value, or every issue at once. */
export function parseQuery<S extends z.ZodObject>(
  raw: Record<string, unknown>,
  schema: S,
): { query: z.output<S> } | { issues: ErrorIssue[] } {
  const { input, issues } = queryInput(raw, schema);
  const parsed = schema.safeParse(input);
  if (!parsed.success) issues.push(...toErrorIssues(parsed.error.issues));
  return issues.length ? { issues } : { query: parsed.data as z.output<S> };
}

/** The search's query string: `query` left blank is no filter, and a reversed date range is reported with the other issues. */
export function parseSearchParams(raw: Record<string, unknown>): { query: SearchQuery } | { issues: ErrorIssue[] } {
  const blankQuery = typeof raw.query === 'string' && raw.query.trim() === '';
  const { input, issues } = queryInput(blankQuery ? { ...raw, query: undefined } : raw, SearchQuerySchema);
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
