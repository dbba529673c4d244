import type { FastifyInstance } from 'fastify';
import { type Catalog, type ChangesReader, changesPage, type MemoBudget, RevisionCache, representationSize } from '../../catalog/index.js';
import { ChangesQuerySchema, PATHS } from '../../domain/index.js';
import { InvalidQueryError } from '../errors.js';
import { Page, sendPage } from '../page.js';
import { parseQuery } from '../search-params.js';

/**
 * `GET /api/reviews/changes?after=CURSOR`: every review added, changed or removed since the cursor, in
 * revision order, read from the store up to the served revision. A page is a function of that revision
 * and the query, so it is kept per revision like a search answer: a client polling with the same cursor
 * costs no query, and every replica serving the revision answers the same bytes (a poll that finds
 * nothing new is a 304).
 */
export function changesRoutes(app: FastifyInstance, catalog: () => Catalog, read: ChangesReader, memo: MemoBudget) {
  const pages = new RevisionCache<Page>(memo, 'changes', representationSize);
  app.get(PATHS.changes, async (req, reply) => {
    const parsed = parseQuery(req.query as Record<string, unknown>, ChangesQuerySchema);
    if ('issues' in parsed) throw new InvalidQueryError(parsed.issues, 'The change feed parameters are not valid; see issues.');
    const c = catalog();
    const key = JSON.stringify([parsed.query.after ?? null, parsed.query.limit]);
    const held = pages.peek(c.revision, key);
    if (held) return sendPage(req, reply, held);
    const page = await changesPage(c, read, parsed.query);
    const next =
      page.next_cursor &&
      `${c.links.base}${PATHS.changes}?${new URLSearchParams({ after: page.next_cursor, limit: String(parsed.query.limit) })}`;
    return sendPage(
      req,
      reply,
      pages.get(c.revision, key, () => new Page(JSON.stringify(page), c.lastModified, next)),
    );
  });
}
