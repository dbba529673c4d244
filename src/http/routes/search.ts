import type { FastifyInstance } from 'fastify';
import { type Catalog, Representation } from '../../catalog/index.js';
import { IsoDate, toErrorIssues } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';
import { sendError } from '../errors.js';
import { RevisionCache } from '../revision-cache.js';
import { parseSearchParams, searchKey } from '../search-params.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export function searchRoutes(app: FastifyInstance, catalog: () => Catalog) {
  const searches = new RevisionCache<Representation>(2000);
  const sinces = new RevisionCache<Representation>(500);

  // Keyed by the raw query string first, so a repeated request skips validation as well as the search.
  const byRawQuery = new RevisionCache<Representation>(2000);

  app.get('/api/reviews/search', async (req, reply) => {
    const c = catalog();
    const raw = req.url.slice(req.url.indexOf('?') + 1 || req.url.length);
    const hit = byRawQuery.peek(c.revision, raw);
    if (hit) return sendRepresentation(req, reply, hit);
    const parsed = parseSearchParams(req.query as Record<string, unknown>);
    if ('issues' in parsed) return sendError(reply, 400, 'invalid_query', 'The search parameters are not valid; see issues.', parsed.issues);
    const rep = searches.get(c.revision, searchKey(parsed.query), () => new Representation(JSON_TYPE, Buffer.from(JSON.stringify(c.search(parsed.query))), c.lastModified));
    byRawQuery.get(c.revision, raw, () => rep);
    return sendRepresentation(req, reply, rep);
  });

  app.get<{ Params: { date: string } }>('/api/reviews/since/:date', async (req, reply) => {
    const parsed = IsoDate.safeParse(req.params.date);
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error.issues).map((i) => ({ ...i, path: ['date'], message: `"${req.params.date}" is not a real calendar date (YYYY-MM-DD)` }));
      return sendError(reply, 400, 'invalid_date', 'The date must be a real calendar date written YYYY-MM-DD.', issues);
    }
    const c = catalog();
    const rep = sinces.get(c.revision, parsed.data, () => new Representation(JSON_TYPE, Buffer.from(JSON.stringify(c.since(parsed.data))), c.lastModified));
    return sendRepresentation(req, reply, rep);
  });
}
