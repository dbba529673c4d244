import type { FastifyInstance } from 'fastify';
import { type Catalog, type ChangesReader, changesPage, PER_URL, Representation } from '../../catalog/index.js';
import { ChangesQuerySchema, type ErrorIssue, PATHS, toErrorIssues } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';
import { InvalidQueryError } from '../errors.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `GET /api/reviews/changes?after=CURSOR`: every review added, changed or removed since the cursor, in
 * revision order. Answered from the store, bounded by the served revision, with an ETag of the exact
 * bytes (so a poll that finds nothing new is a 304).
 */
export function changesRoutes(app: FastifyInstance, catalog: () => Catalog, read: ChangesReader) {
  app.get(PATHS.changes, async (req, reply) => {
    const raw = req.query as Record<string, unknown>;
    const issues: ErrorIssue[] = ['after', 'limit']
      .filter((k) => Array.isArray(raw[k]))
      .map((k) => ({ path: [k], code: 'repeated_parameter', message: `"${k}" was given more than once; give it at most once` }));
    const input = {
      after: raw.after,
      limit: typeof raw.limit === 'string' && /^\d+$/.test(raw.limit) ? Number(raw.limit) : raw.limit,
    };
    const parsed = ChangesQuerySchema.safeParse(input);
    if (issues.length || !parsed.success) {
      if (!parsed.success) issues.push(...toErrorIssues(parsed.error.issues));
      throw new InvalidQueryError(issues, 'The change feed parameters are not valid; see issues.');
    }
    const c = catalog();
    const page = await changesPage(c, read, parsed.data);
    if (page.next_cursor)
      reply.header(
        'link',
        `<${c.links.base}/api/reviews/changes?${new URLSearchParams({ after: page.next_cursor, limit: String(parsed.data.limit) })}>; rel="next"`,
      );
    return sendRepresentation(
      req,
      reply,
      new Representation(JSON_TYPE, Buffer.from(JSON.stringify(page)), c.lastModified, { policy: PER_URL }),
    );
  });
}
