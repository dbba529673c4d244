import { parse } from 'fast-querystring';
import type { FastifyInstance } from 'fastify';
import { type Catalog, type MemoBudget, type Representation, RevisionCache, representationSize } from '../../catalog/index.js';
import { type ErrorIssue, IsoDateSchema, PATHS, SinceQuerySchema, toErrorIssues } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';
import { InvalidDateError, InvalidQueryError } from '../errors.js';
import { type Precomputed, readyCatalog } from '../fast-path.js';
import { Page, sendPage } from '../page.js';
import { parseQuery, parseSearchParams, searchKey, searchQueryString } from '../search-params.js';

/**
 * Search pages by raw query string, memoized per revision: what the Fastify route and the fast path in
 * front of it both answer, so the two give the same bytes.
 */
export class Searches {
  // Kept from a query's second request: under a stream of distinct searches (agents, crawlers), keeping
  // each body only churned the budget and the heap, every entry evicted before any reuse.
  private readonly pages: RevisionCache<Page>;
  // The raw query string → the parsed query's key, so a repeated request skips validation as well as the search.
  private readonly keys: RevisionCache<string>;

  constructor(memo: MemoBudget) {
    // A page of views is counted at its bytes' length, more than its view objects hold.
    this.pages = new RevisionCache<Page>(memo, 'search', representationSize, { fromSecondRequest: true });
    this.keys = new RevisionCache<string>(memo, 'search_raw', (key) => 2 * key.length, { fromSecondRequest: true });
  }

  /** The page for the raw query string (`params`: it parsed into parameters), or the query's issues. */
  page(c: Catalog, raw: string, params: () => Record<string, unknown>): Page | { issues: ErrorIssue[] } {
    const knownKey = this.keys.peek(c.revision, raw);
    const hit = knownKey === undefined ? undefined : this.pages.peek(c.revision, knownKey);
    if (hit) return hit;
    const parsed = parseSearchParams(params());
    if ('issues' in parsed) return parsed;
    const key = searchKey(parsed.query);
    const page = this.pages.get(c.revision, key, () => {
      const { parts, digest, next_cursor } = c.searchPage(parsed.query);
      const next = next_cursor && `${c.links.base}${PATHS.search}?${searchQueryString(parsed.query, next_cursor)}`;
      return new Page(parts, c.lastModified, next, digest);
    });
    this.keys.get(c.revision, raw, () => key);
    return page;
  }

  /** The same pages for the fast path: a valid query's page once the catalog is ready; anything else goes to Fastify. */
  ahead(catalog: () => Catalog): Precomputed {
    return (query) => {
      const c = readyCatalog(catalog);
      const page = c && this.page(c, query ?? '', () => (query ? parse(query) : {}));
      return page && !('issues' in page) ? { rep: page, before: page.before } : null;
    };
  }
}

export function searchRoutes(app: FastifyInstance, catalog: () => Catalog, memo: MemoBudget, searches: Searches) {
  // Since bodies are views of /reviews.json: a memo entry holds only the small head, tail and any variants.
  const sinces = new RevisionCache<Representation>(memo, 'since', representationSize);

  app.get(PATHS.search, async (req, reply) => {
    const raw = req.url.slice(req.url.indexOf('?') + 1 || req.url.length);
    const page = searches.page(catalog(), raw, () => req.query as Record<string, unknown>);
    if ('issues' in page) throw new InvalidQueryError(page.issues);
    return sendPage(req, reply, page);
  });

  app.get<{ Params: { date: string } }>(`${PATHS.since}/:date`, async (req, reply) => {
    const parsed = IsoDateSchema.safeParse(req.params.date);
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error.issues).map((i) => ({
        ...i,
        path: ['date'],
        message: `"${req.params.date}" is not a real calendar date (YYYY-MM-DD)`,
      }));
      throw new InvalidDateError(issues);
    }
    const query = parseQuery(req.query as Record<string, unknown>, SinceQuerySchema);
    if ('issues' in query) throw new InvalidQueryError(query.issues, 'The paging parameters are not valid; see issues.');
    const c = catalog();
    const { limit, cursor } = query.query;
    if (limit === undefined && cursor === undefined)
      return sendRepresentation(
        req,
        reply,
        sinces.get(c.revision, parsed.data, () => c.sinceRepresentation(parsed.data)),
      );
    // A since cursor is a search cursor for `since=date`: checked by the one search schema.
    const check = parseSearchParams({ since: parsed.data, cursor });
    if ('issues' in check) throw new InvalidQueryError(check.issues, 'The paging parameters are not valid; see issues.');
    const size = limit ?? SINCE_PAGE_DEFAULT;
    const rep = sinces.get(c.revision, JSON.stringify([parsed.data, size, cursor ?? null]), () => {
      const page = c.sincePage(parsed.data, size, cursor);
      const next =
        page.next_cursor &&
        `${c.links.base}${PATHS.since}/${parsed.data}?${new URLSearchParams({ limit: String(size), cursor: page.next_cursor })}`;
      return new Page(JSON.stringify(page), c.lastModified, next);
    });
    return sendPage(req, reply, rep);
  });
}

/** Page size of `since/{date}` when only a cursor is given. */
const SINCE_PAGE_DEFAULT = 100;
