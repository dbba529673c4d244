import { z } from 'zod';
import { IsoDateSchema } from './common.js';
import { ReviewSchema } from './review.js';

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;

/**
 * The one schema behind REST `GET /api/reviews/search` and MCP `search_reviews`. Filters combine with
 * AND; REST query strings are converted to these types before validation (see http), so both surfaces
 * reject exactly the same inputs with the same issues.
 */
export const SearchQuerySchema = z
  .object({
    rating: z.int().min(1).max(5).optional().describe('exact star rating'),
    min_rating: z.number().min(1).max(5).optional().describe('minimum star rating, inclusive'),
    since: IsoDateSchema.optional().describe('only reviews dated on or after this day'),
    until: IsoDateSchema.optional().describe('only reviews dated on or before this day'),
    query: z.string().max(200).optional().describe('case-insensitive plain-text substring of the review text'),
    mentions_technician: z.string().min(1).max(120).optional().describe('technician id, name or alias'),
    mentions_service: z.string().min(1).max(120).optional().describe('service id, name or alias'),
    limit: z.int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT).describe('maximum reviews returned (1–100, default 20)'),
  })
  .superRefine(
    (q, ctx) => {
      const issue = sinceAfterUntil(q.since, q.until);
      if (issue) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    },
    // Also when another field is invalid, so one answer lists every problem; only the two dates must be valid.
    {
      when: (payload) =>
        typeof payload.value === 'object' &&
        payload.value !== null &&
        !payload.issues.some((i) => i.path?.[0] === 'since' || i.path?.[0] === 'until'),
    },
  )
  .meta({ id: 'SearchQuery' });
export type SearchQuery = z.output<typeof SearchQuerySchema>;

/**
 * The one rule across two filters: a range that ends before it starts. Zod skips refinements after a
 * field fails outright (`rating=2.5`), so a surface that reports every problem at once (REST) also
 * asks this directly; it holds only when both values are real dates.
 */
export function sinceAfterUntil(since: unknown, until: unknown): { path: ['since']; message: string; code: 'custom' } | null {
  if (!IsoDateSchema.safeParse(since).success || !IsoDateSchema.safeParse(until).success || (since as string) <= (until as string))
    return null;
  return { path: ['since'], message: `since (${since}) is after until (${until})`, code: 'custom' };
}

/** Names of the search filters, for surfaces that translate raw input (REST query strings), in the schema's order. */
export const SEARCH_PARAMS = Object.keys(SearchQuerySchema.shape) as (keyof SearchQuery)[];
export type SearchParam = keyof SearchQuery;
const unwrapped = (s: z.ZodType): z.ZodType =>
  s instanceof z.ZodOptional || s instanceof z.ZodDefault ? unwrapped(s.unwrap() as z.ZodType) : s;
/** The filters whose values are numbers (a query string carries them as text). */
export const NUMERIC_SEARCH_PARAMS: ReadonlySet<string> = new Set(
  SEARCH_PARAMS.filter((k) => unwrapped(SearchQuerySchema.shape[k]) instanceof z.ZodNumber),
);

export const SearchResultSchema = z
  .object({
    matched: z.int().min(0).describe('every review that passes the filters'),
    returned: z.int().min(0),
    reviews: z.array(ReviewSchema),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SinceResultSchema = z
  .object({ since: IsoDateSchema, count: z.int().min(0), reviews: z.array(ReviewSchema) })
  .meta({ id: 'SinceResult' });
export type SinceResult = z.infer<typeof SinceResultSchema>;
