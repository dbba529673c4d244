import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { type ChangesReader, type Engine, MemoBudget } from '../catalog/index.js';
import { type Config, type ConfigInput, loadConfig } from '../config.js';
import { DEFAULT_API_OPTIONS, SyncScheduler, sourceStatuses, sourcesMetricsText } from '../connectors/index.js';
import { buildApp, FastPathCounts, fastPathMetricsText, memoMetricsText } from '../http/index.js';
import { McpCounters, mcpMetricsText, mcpToolDefinitions, registerMcp, StoreSessionStore } from '../mcp/index.js';
import { registerPages } from '../pages/index.js';
import { Store } from '../store/index.js';
import { HubWorker, hubConfigFrom, registerHub } from '../websub/index.js';
import { EventLoopMonitor } from './event-loop.js';
import { closeHttp } from './http-shutdown.js';
import { type QuietCollection, QuietCollector } from './quiet-collector.js';
import { RevisionScheduler } from './revision-scheduler.js';
import { seedDemo } from './seed-demo.js';

export interface RunningServer {
  app: FastifyInstance;
  /** Where it listens, e.g. http://127.0.0.1:41234 */
  url: string;
  config: Config;
  store: Store;
  catalog: RevisionScheduler;
  hub: HubWorker;
  log: Logger;
  close(): Promise<void>;
}

/**
 * The composition root: store → catalog → HTTP surfaces. Tests call it with port 0; `reviewcast
 * serve` calls it with the environment and flags.
 */
export async function startServer(
  overrides: Partial<ConfigInput> = {},
  /** fastPath: false serves the datasets through Fastify too, as they are without the fast path (for comparing the two). */
  /** quietCollection: when a full collection follows a busy spell (tests look more often, at less growth). */
  /** engine: the NLP engine (a test's own); the insights engine without it. */
  opts: { logger?: Logger; fastPath?: boolean; quietCollection?: QuietCollection; engine?: Engine } = {},
): Promise<RunningServer> {
  const config = loadConfig(overrides);
  const log = opts.logger ?? pino({ level: config.logLevel });
  // The store writer thread copies SQLite's log back, not the event loop (see RevisionScheduler).
  const store = await Store.open(config.databaseUrl, { checkpointsElsewhere: true });
  if (config.demoIfEmpty && (await store.reviewCount()) === 0 && !(await store.getBusiness())) {
    const { reviews } = await seedDemo(store);
    log.info({ reviews, database: store.location }, 'empty database: loaded the demo business (Brightwater Plumbing & Heating)');
  }
  let publicBaseUrl = config.publicBaseUrl;
  const quiet = new QuietCollector(log, opts.quietCollection);
  const catalog = new RevisionScheduler(store, {
    publicBaseUrl: () => publicBaseUrl!,
    databaseUrl: config.databaseUrl,
    pollMs: config.pollMs,
    corpusIdle: config.corpusIdle,
    onGarbage: (reason) => quiet.expectGarbage(reason),
    engine: opts.engine,
    log,
  });
  const hubConfig = hubConfigFrom(config);
  const hubDeps = {
    store,
    catalog: () => catalog.get(),
    config: hubConfig,
    log: log.child({ module: 'websub' }),
  };
  const hub = new HubWorker(hubDeps);
  const serving = config.role !== 'worker';
  const working = config.role !== 'api';
  // Registered before the first load, so start-up announces a revision a crash left unannounced.
  if (working) catalog.onRevision((c) => hub.onRevision(c));
  // Connected review platforms sync on worker processes; any process reports their state from the store.
  const sync = working
    ? new SyncScheduler({
        store,
        log: log.child({ module: 'sync' }),
        api: {
          ...DEFAULT_API_OPTIONS,
          allowPrivate: config.syncAllowPrivate,
          caFile: config.syncCaFile,
          retryBaseMs: config.syncRetryBaseMs,
        },
        tokens: new Map(),
        intervalMs: config.syncIntervalMs,
        fullIntervalMs: config.syncFullIntervalMs,
        leaseMs: config.syncClaimLeaseMs,
      })
    : null;
  const mcpCounters = new McpCounters();
  const memo = new MemoBudget(config.memoBytes);
  const eventLoop = new EventLoopMonitor();
  const fastPath = new FastPathCounts();
  const metrics = (a: FastifyInstance) => {
    a.get('/metrics', async (_req, reply) =>
      reply
        .type('text/plain; version=0.0.4; charset=utf-8')
        .send(
          (await hub.metricsText()) +
            mcpMetricsText(mcpCounters) +
            memoMetricsText(memo) +
            fastPathMetricsText(fastPath) +
            eventLoop.metricsText() +
            quiet.metricsText() +
            sourcesMetricsText(await sourceStatuses(store)),
        ),
    );
  };
  const changes: ChangesReader = (after, upTo, limit) => store.reviewChanges(after, upTo, limit);
  const app = await buildApp({
    catalog: () => catalog.get(),
    changes,
    logger: log,
    trustProxy: config.trustProxy,
    ready: () => store.ping(),
    readyInfo: async () => {
      const statuses = await sourceStatuses(store);
      return statuses.length
        ? { sources: statuses.map(({ name, status, last_success_at, last_error }) => ({ name, status, last_success_at, last_error })) }
        : {};
    },
    memo,
    fastPath: opts.fastPath !== false && fastPath,
    // A worker-only process answers health, readiness and metrics; the public surfaces live on api processes.
    surfaces: serving,
    plugins: serving
      ? [
          (a) =>
            registerMcp(a, {
              catalog: () => catalog.get(),
              changes,
              config,
              log: log.child({ module: 'mcp' }),
              // On PostgreSQL (the several-replicas setup) sessions live in the database so every replica accepts them.
              sessions: store.sharesState
                ? new StoreSessionStore(store, { ttlMs: config.mcpSessionTtlMs, maxSessions: config.mcpMaxSessions })
                : undefined,
              rateLimits: store,
              counters: mcpCounters,
              memo,
            }),
          // An api-only process queues verifications; a worker process (polling the store) runs them.
          (a) => registerHub(a, { ...hubDeps, worker: working ? hub : undefined }),
          (a) => registerPages(a, { catalog: () => catalog.get(), toolDefinitions: mcpToolDefinitions, memo, hubLimits: hubConfig }),
          metrics,
        ]
      : [metrics],
  });
  // Listen first so the base URL can name the real port; until the catalog is loaded requests get 503.
  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  publicBaseUrl ??= config.host === '0.0.0.0' || config.host === '::' ? `http://localhost:${port}` : url;
  config.publicBaseUrl = publicBaseUrl;
  await catalog.refresh();
  catalog.startWatching();
  if (working) await hub.start();
  sync?.start();
  eventLoop.start();
  quiet.start(app.server);
  if (!catalog.loaded) log.warn('no business profile is stored: not ready until `reviewcast business set FILE` stores one');
  log.info({ url, publicBaseUrl, role: config.role, revision: catalog.loaded ? catalog.get().revision : null }, 'reviewcast listening');

  let closing: Promise<void> | null = null;
  return {
    app,
    url,
    config,
    store,
    catalog,
    hub,
    log,
    close() {
      // In-flight requests finish (Fastify stops accepting, then waits, for the grace at most), then background work, then the store.
      closing ??= (async () => {
        eventLoop.stop();
        quiet.stop();
        await catalog.stop();
        await closeHttp(app, config.shutdownGraceMs, log);
        await sync?.stop();
        await hub.stop();
        await store.close();
      })();
      return closing;
    },
  };
}
