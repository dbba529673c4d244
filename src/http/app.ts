import cors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Catalog, ChangesReader, MemoBudget } from '../catalog/index.js';
import { NotReadyError, PATHS } from '../domain/index.js';
import { CORS } from './cors.js';
import { frameworkError, registerErrorHandling, sendError } from './errors.js';
import { type FastPathCounts, serveAhead } from './fast-path.js';
import { buildOpenApi } from './openapi.js';
import { changesRoutes } from './routes/changes.js';
import { datasetRoutes, precomputedDatasets } from './routes/datasets.js';
import { discoveryRoutes } from './routes/discovery.js';
import { Searches, searchRoutes } from './routes/search.js';

export interface AppDeps {
  catalog: () => Catalog;
  /** The store's change log, for `GET /api/reviews/changes` (not mounted without it). */
  changes?: ChangesReader;
  logger: Logger;
  /** Trust X-Forwarded-* from a proxy (client addresses for rate limits): true, a hop count, or addresses. */
  trustProxy?: boolean | number | string;
  /** Readiness: resolves when the store answers; rejects otherwise. */
  ready: () => Promise<void>;
  /** Extra readiness facts that do not make the process unready (e.g. a review source failing to sync). */
  readyInfo?: () => Promise<Record<string, unknown>>;
  /** Mount the public REST surface (false for a worker-only process, which keeps health and readiness). */
  surfaces?: boolean;
  /** The byte budget every per-URL memo of the process shares (REVIEWCAST_MEMO_BYTES). */
  memo: MemoBudget;
  /**
   * Serve the datasets' and valid searches' GETs ahead of Fastify, counted here: the same answers without
   * routing and hooks. False (or absent) sends every request through Fastify.
   */
  fastPath?: FastPathCounts | false;
  /** Further surfaces (MCP, WebSub hub, pages) mounted by the composition root. */
  plugins?: ((app: FastifyInstance) => void | Promise<void>)[];
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: 1 << 20,
    // Fastify accepts a hop count too, though its overloads do not list it.
    trustProxy: (deps.trustProxy ?? false) as boolean | string,
    // The 503 while closing is answered by registerErrorHandling in the contract's shape, as are router errors.
    return503OnClosing: false,
    frameworkErrors: frameworkError,
    // Long enough that each route judges its own parameter (an invalid date, an unknown id); beyond it, 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // One log line per request costs more than serving a cached body; they appear at LOG_LEVEL=debug,
    // and so does the per-request child logger (request id bindings) that only those lines need.
    logController: new LogController({ disableRequestLogging: () => !deps.logger.isLevelEnabled('debug') }),
    childLoggerFactory: (logger, bindings, opts) => (deps.logger.isLevelEnabled('debug') ? logger.child(bindings, opts) : logger),
  });
  const closing = registerErrorHandling(app);
  await app.register(cors, CORS);

  if (deps.surfaces !== false) {
    datasetRoutes(app, deps.catalog);
    const searches = new Searches(deps.memo);
    // Request logs are written by Fastify (at debug): the fast path steps aside for them, and while closing.
    if (deps.fastPath)
      serveAhead(
        app.server,
        new Map([...precomputedDatasets(deps.catalog), [PATHS.search, searches.ahead(deps.catalog)]]),
        () => !closing() && !deps.logger.isLevelEnabled('debug'),
        deps.fastPath,
      );
    searchRoutes(app, deps.catalog, deps.memo, searches);
    if (deps.changes) changesRoutes(app, deps.catalog, deps.changes, deps.memo);
    discoveryRoutes(app, deps.catalog);
    openapiRoute(app, deps.catalog);
  }
  app.get(PATHS.healthz, async () => ({ status: 'ok' }));
  app.get(PATHS.readyz, async (_req, reply) => {
    try {
      await deps.ready();
      const c = deps.catalog();
      return { status: 'ready', revision: c.revision, reviews: c.reviews.length, ...(await deps.readyInfo?.()) };
    } catch (err) {
      const message = err instanceof NotReadyError ? err.message : `Not ready: ${(err as Error).message}`;
      return sendError(reply.header('Retry-After', '5'), 503, 'not_ready', message);
    }
  });

  for (const plugin of deps.plugins ?? []) await plugin(app);
  return app;
}

function openapiRoute(app: FastifyInstance, catalog: () => Catalog) {
  let openapi: Buffer | null = null;
  app.get(PATHS.openapi, async (_req, reply) => {
    openapi ??= Buffer.from(JSON.stringify(buildOpenApi(catalog().links.base)));
    return reply.type('application/json; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(openapi);
  });
}
