import { z } from 'zod';
import { IsoDateSchema } from './common.js';
import { decodeCursor, fingerprint } from './cursor.js';
import { ReviewSchema } from './review.js';

export const SEARCH_LIMIT_DEFAULT = 20;
const SEARCH_LIMIT_MAX = 100;
const SEARCH_SORTS = ['newest', 'oldest', 'highest', 'lowest'] as const;
type SearchSort = (typeof SEARCH_SORTS)[number];

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
    has_text: z.boolean().optional().describe('true: only reviews with text; false: only rating-only reviews'),
    source: z.string().min(1).max(40).optional().describe('only reviews from this platform (google, yelp, …), case-insensitive'),
    language: z
      .string()
      .min(1)
      .max(35)
      .optional()
      .describe('BCP 47 tag, case-insensitive; a language (en) also matches its regional tags (en-US)'),
    has_owner_reply: z.boolean().optional().describe('true: only reviews the owner answered; false: only unanswered ones'),
    sort: z
      .enum(SEARCH_SORTS)
      .default('newest')
      .describe('newest (default: date, then published_at, then id, descending), oldest, highest or lowest rating (then newest)'),
    limit: z.int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT).describe('maximum reviews returned (1–100, default 20)'),
    cursor: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe('next_cursor of the previous page, unchanged; the filters and sort must be the same, limit may change'),
  })
  .superRefine((q, ctx) => {
    if (q.cursor === undefined) return;
    const got = decodeCursor(q.cursor, 'search', 'cursor');
    if ('issue' in got) ctx.addIssue({ code: 'custom', path: ['cursor'], message: got.issue.message });
    else if (got.cursor.q !== searchFingerprint(q))
      ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'this cursor belongs to a search with other filters or another sort' });
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
/** What the catalog's search takes: a validated query, where internal callers may leave the order to its default. */
export type SearchRequest = Omit<SearchQuery, 'sort'> & { sort?: SearchSort };

/**
 * The one rule across two filters: a range that ends before it starts. Zod skips refinements after a
 * field fails outright (`rating=2.5`), so a surface that reports every problem at once (REST) also
 * asks this directly; it holds only when both values are real dates.
 */
export function sinceAfterUntil(since: unknown, until: unknown): { path: ['since']; message: string; code: 'custom' } | null {
  // Compared first: most searches give one date or none, and a failed parse builds its issues, far
  // costlier than the comparison.
  if (typeof since !== 'string' || typeof until !== 'string' || since <= until) return null;
  if (!IsoDateSchema.safeParse(since).success || !IsoDateSchema.safeParse(until).success) return null;
  return { path: ['since'], message: `since (${since}) is after until (${until})`, code: 'custom' };
}

/** Names of the search filters, for surfaces that translate raw input (REST query strings), in the schema's order. */
export const SEARCH_PARAMS = Object.keys(SearchQuerySchema.shape) as (keyof SearchQuery)[];
export type SearchParam = keyof SearchQuery;
/** What a cursor is bound to: every parameter but the page size and the cursor itself. */
const FINGERPRINTED = SEARCH_PARAMS.filter((k) => k !== 'limit' && k !== 'cursor');

/** The fingerprint a search cursor carries: the same filters and order give the same one. */
export const searchFingerprint = (q: Partial<Record<SearchParam, unknown>>) =>
  fingerprint(JSON.stringify(FINGERPRINTED.map((k) => q[k] ?? (k === 'sort' ? 'newest' : null))));

export const SearchResultSchema = z
  .object({
    matched: z.int().min(0).describe('every review that passes the filters'),
    returned: z.int().min(0),
    reviews: z.array(ReviewSchema),
    next_cursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SinceResultSchema = z
  .object({
    since: IsoDateSchema,
    count: z.int().min(0).describe('every review dated on or after the day (a page may hold fewer)'),
    reviews: z.array(ReviewSchema),
    next_cursor: z.string().nullable().describe('null unless paged with limit and more follow'),
  })
  .meta({ id: 'SinceResult' });
export type SinceResult = z.infer<typeof SinceResultSchema>;

const SINCE_LIMIT_MAX = 1000;

/** Query of `GET /api/reviews/since/{date}`: no limit means every review (the interface's default). */
export const SinceQuerySchema = z
  .object({
    limit: z.int().min(1).max(SINCE_LIMIT_MAX).optional().describe('page size (1–1000); without it, every review since the day'),
    cursor: z.string().min(1).max(1000).optional().describe('next_cursor of the previous page, unchanged'),
  })
  .meta({ id: 'SinceQuery' });
