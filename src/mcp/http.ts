import type { ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Catalog, ChangesReader, MemoBudget } from '../catalog/index.js';
import { PATHS } from '../domain/index.js';
import { RateLimiter, type Store } from '../store/index.js';
import { OriginNotAllowedError } from './errors.js';
import { McpCounters } from './metrics.js';
import { originPolicy } from './origin.js';
import { createMcpServerFactory, type McpServerFactory } from './server.js';
import { createSessionEraHandler } from './session-era.js';
import { InMemorySessionStore, type SessionStore } from './sessions.js';
import { STATELESS_REVISION, warmUp } from './warm-up.js';

/** Largest JSON-RPC body accepted; larger ones are answered 413 before anything is parsed. */
export const MAX_BODY_BYTES = 1 << 20;

export interface McpConfig {
  mcpSessionTtlMs: number;
  mcpMaxSessions: number;
  /** Session creations (initialize) per client address per minute; burst a third of it. */
  mcpSessionsPerMinute: number;
  /** Null: the public base URL's host and loopback; a list: exactly these origins. */
  mcpAllowedOrigins: string[] | null;
}

/** The part of a pino logger this module uses. */
export interface McpLogger {
  debug(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface McpDeps {
  catalog: () => Catalog;
  /** The store's change log, for get_changes (the tool is not offered without it). */
  changes?: ChangesReader;
  config: McpConfig;
  log: McpLogger;
  /** Defaults to this process's memory; replicas pass a shared store. */
  sessions?: SessionStore;
  /** Where session-creation token buckets live (the store's, so the limit is global across replicas). */
  rateLimits: Store;
  /** The process's per-URL memo budget, which the tool results memo shares. */
  memo: MemoBudget;
  /** Counters for /metrics; the composition root passes the ones it reports. */
  counters?: McpCounters;
  /** The server each request is served by; defaults to the catalog's tools. The benchmark swaps in a no-op server to measure the transport alone. */
  createServer?: McpServerFactory;
}

/**
 * Mounts the MCP endpoint at /mcp for both protocol eras. 2026-07-28 requests (a per-request `_meta`
 * envelope) go to the SDK's createMcpHandler; everything else is the 2025 session era. The SDK's own
 * classifier (isLegacyRequest) makes that decision, so routing cannot disagree with the SDK.
 */
export async function registerMcp(app: FastifyInstance, deps: McpDeps): Promise<void> {
  const sessions =
    deps.sessions ?? new InMemorySessionStore({ ttlMs: deps.config.mcpSessionTtlMs, maxSessions: deps.config.mcpMaxSessions });
  const createServer = deps.createServer ?? createMcpServerFactory(deps.catalog, deps.memo, deps.changes);
  // Rejected requests are the client's problem, not the server's: keep them out of the default log level.
  const onerror = (err: Error) => deps.log.debug({ err: err.message }, 'mcp request rejected');
  // The SDK has checked the Mcp-Method and Mcp-Name headers against the body before it calls the factory.
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const method = requestInfo?.headers.get('mcp-method');
      const name = requestInfo?.headers.get('mcp-name');
      return createServer(method ? { method, ...(name && { name }), protocolVersion: STATELESS_REVISION } : undefined);
    },
    { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES, onerror },
  );
  const perMinute = deps.config.mcpSessionsPerMinute;
  const initializeLimit = new RateLimiter(deps.rateLimits, 'mcp-session', perMinute, Math.max(1, Math.round(perMinute / 3)));
  const counters = deps.counters ?? new McpCounters();
  const sessionEra = createSessionEraHandler({ createServer, sessions, maxBodyBytes: MAX_BODY_BYTES, initializeLimit, counters });
  // The public base URL comes with the catalog; before the first one loads, only loopback origins pass.
  const publicBaseUrl = () => {
    try {
      return deps.catalog().links.base;
    } catch {
      return null;
    }
  };
  const allowOrigin = originPolicy(deps.config.mcpAllowedOrigins, publicBaseUrl);

  const route = async (request: Request, clientAddress: string, era: typeof sessionEra): Promise<Response> => {
    const origin = request.headers.get('origin');
    if (!allowOrigin(origin)) return new OriginNotAllowedError(origin).toResponse();
    // Parse once and hand the value to whichever leg serves it; only a body that is not JSON is passed on raw, for the SDK to reject.
    let parsedBody: unknown;
    let forward = request;
    if (request.method === 'POST') {
      const text = await request.text();
      try {
        parsedBody = JSON.parse(text);
      } catch {
        forward = new Request(request.url, { method: 'POST', headers: request.headers, body: text });
      }
    }
    if (await isLegacyRequest(forward, parsedBody, { maxRequestBodySize: MAX_BODY_BYTES })) return era(forward, parsedBody, clientAddress);
    return modern.fetch(forward, parsedBody === undefined ? undefined : { parsedBody });
  };
  const adapterOptions = { maxRequestBodySize: MAX_BODY_BYTES, onerror: (err: Error) => deps.log.error({ err }, 'mcp request failed') };
  // One adapter per request (a closure, cheap) so the handler knows the client address Fastify
  // resolved (TRUST_PROXY applies), which the session-creation limit is keyed by.
  const serve = (req: FastifyRequest, res: ServerResponse) =>
    toNodeHandler({ fetch: (request: Request) => route(request, req.ip, sessionEra) }, adapterOptions)(req.raw, res);

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: PATHS.mcp,
    // HEAD is not an MCP operation; without the automatic HEAD route it gets the app's own 405.
    exposeHeadRoute: false,
    // Taken over before Fastify reads the body: the SDK adapter enforces the size limit (413) and owns
    // content-type checks (415), which Fastify's own parsers would otherwise answer in their own shape.
    onRequest: async (req, reply) => {
      reply.hijack();
      // Headers other hooks set (CORS, security headers) still apply to the raw response.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      await serve(req, reply.raw);
    },
    // Never reached: onRequest has taken the request over.
    handler: async () => undefined,
  });
  // Through a session era of its own (its own session table, no rate limit): no client's token, session
  // slot or counter is touched.
  const warmEra = createSessionEraHandler({
    createServer,
    sessions: new InMemorySessionStore({ ttlMs: 60_000, maxSessions: 1 }),
    maxBodyBytes: MAX_BODY_BYTES,
    initializeLimit: { take: async () => 0 },
    counters: new McpCounters(),
  });
  const statuses = await warmUp((request) => route(request, 'warm-up', warmEra));
  // Not fatal: the first client then pays for what was not warmed.
  if (statuses.some((s) => s >= 300)) deps.log.error({ statuses }, 'mcp warm-up answered an error');
  app.addHook('onClose', async () => {
    await modern.close();
  });
}
