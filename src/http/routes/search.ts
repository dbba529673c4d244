import type { FastifyInstance } from 'fastify';
import { type Catalog, type MemoBudget, type Representation, RevisionCache, representationSize } from '../../catalog/index.js';
import { IsoDateSchema, PATHS, SinceQuerySchema, toErrorIssues } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';
import { InvalidDateError, InvalidQueryError } from '../errors.js';
import { Page, sendPage } from '../page.js';
import { parseQuery, parseSearchParams, searchKey, searchQueryString } from '../search-params.js';

export function searchRoutes(app: FastifyInstance, catalog: () => Catalog, memo: MemoBudget) {
  // Kept from a query's second request: under a stream of distinct searches (agents, crawlers), keeping
  // each body only churned the budget and the heap, every entry evicted before any reuse.
  const searches = new RevisionCache<Representation>(memo, 'search', representationSize, { fromSecondRequest: true });
  // The raw query string → the parsed query's key, so a repeated request skips validation as well as the search.
  const rawQueries = new RevisionCache<string>(memo, 'search_raw', (key) => 2 * key.length, { fromSecondRequest: true });
  // Since bodies are views of /reviews.json: a memo entry holds only the small head, tail and any variants.
  const sinces = new RevisionCache<Representation>(memo, 'since', representationSize);

  app.get(PATHS.search, async (req, reply) => {
    const c = catalog();
    const raw = req.url.slice(req.url.indexOf('?') + 1 || req.url.length);
    const knownKey = rawQueries.peek(c.revision, raw);
    const hit = knownKey === undefined ? undefined : searches.peek(c.revision, knownKey);
    if (hit) return sendPage(req, reply, hit);
    const parsed = parseSearchParams(req.query as Record<string, unknown>);
    if ('issues' in parsed) throw new InvalidQueryError(parsed.issues);
    const key = searchKey(parsed.query);
    const rep = searches.get(c.revision, key, () => {
      const page = c.searchPage(parsed.query);
      return new Page(
        page.body,
        c.lastModified,
        page.next_cursor && `${c.links.base}${PATHS.search}?${searchQueryString(parsed.query, page.next_cursor)}`,
        page.digest,
      );
    });
    rawQueries.get(c.revision, raw, () => key);
    return sendPage(req, reply, rep);
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
