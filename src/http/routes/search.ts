import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Catalog, PER_URL, Representation } from '../../catalog/index.js';
import { IsoDateSchema, PATHS, SinceQuerySchema, toErrorIssues } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';
import { InvalidDateError, InvalidQueryError } from '../errors.js';
import { type MemoBudget, RevisionCache } from '../revision-cache.js';
import { parseSearchParams, searchKey, searchQueryString } from '../search-params.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A rendered body's own bytes and compressed variants, for the memo budget. */
export const representationSize = (rep: Representation, grew: (bytes: number) => void) => rep.track(grew);

export function searchRoutes(app: FastifyInstance, catalog: () => Catalog, memo: MemoBudget) {
  const searches = new RevisionCache<Representation>(memo, 'search', representationSize);
  // The raw query string → the parsed query's key, so a repeated request skips validation as well as the search.
  const rawQueries = new RevisionCache<string>(memo, 'search_raw', (key) => 2 * key.length);
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
      const result = c.search(parsed.query);
      return new Page(
        JSON.stringify(result),
        c.lastModified,
        result.next_cursor && `${c.links.base}${PATHS.search}?${searchQueryString(parsed.query, result.next_cursor)}`,
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
    const query = SinceQuerySchema.safeParse(sinceParams(req.query as Record<string, unknown>));
    const c = catalog();
    if (!query.success) throw new InvalidQueryError(toErrorIssues(query.error.issues), 'The paging parameters are not valid; see issues.');
    const { limit, cursor } = query.data;
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

/** `limit` and `cursor` of a since request, numbers written as text turned into numbers. */
function sinceParams(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (raw.limit !== undefined) out.limit = typeof raw.limit === 'string' && /^\d+$/.test(raw.limit) ? Number(raw.limit) : raw.limit;
  if (raw.cursor !== undefined) out.cursor = raw.cursor;
  return out;
}

/** A page's body with the URL of the next page, if any (RFC 8288 `Link: <…>; rel="next"`). */
class Page extends Representation {
  constructor(
    body: string,
    lastModified: string,
    readonly next: string | null,
  ) {
    super(JSON_TYPE, Buffer.from(body), lastModified, { policy: PER_URL });
  }
}

function sendPage(req: FastifyRequest, reply: FastifyReply, rep: Representation) {
  if (rep instanceof Page && rep.next) reply.header('link', `<${rep.next}>; rel="next"`);
  return sendRepresentation(req, reply, rep);
}
