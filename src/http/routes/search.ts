import type { FastifyInstance } from 'fastify';
import { type Catalog, PER_URL, Representation } from '../../catalog/index.js';
import { IsoDateSchema, PATHS, toErrorIssues } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';
import { InvalidDateError, InvalidQueryError } from '../errors.js';
import { type MemoBudget, RevisionCache } from '../revision-cache.js';
import { parseSearchParams, searchKey } from '../search-params.js';

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
    if (hit) return sendRepresentation(req, reply, hit);
    const parsed = parseSearchParams(req.query as Record<string, unknown>);
    if ('issues' in parsed) throw new InvalidQueryError(parsed.issues);
    const key = searchKey(parsed.query);
    const rep = searches.get(
      c.revision,
      key,
      () => new Representation(JSON_TYPE, Buffer.from(JSON.stringify(c.search(parsed.query))), c.lastModified, { policy: PER_URL }),
    );
    rawQueries.get(c.revision, raw, () => key);
    return sendRepresentation(req, reply, rep);
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
    const c = catalog();
    return sendRepresentation(
      req,
      reply,
      sinces.get(c.revision, parsed.data, () => c.sinceRepresentation(parsed.data)),
    );
  });
}
