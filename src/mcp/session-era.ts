import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import {
  McpMethodNotAllowedError,
  SessionIdRequiredError,
  SessionNotFoundError,
  SessionRateLimitedError,
  SessionsFullError,
} from './errors.js';
import type { McpCounters } from './metrics.js';
import type { Exchange, McpServerFactory } from './server.js';
import { EVICTABLE_AFTER_MS, type SessionStore } from './sessions.js';

export interface SessionEraOptions {
  createServer: McpServerFactory;
  sessions: SessionStore;
  maxBodyBytes: number;
  /** Session creations per client address: 0 when allowed, else the seconds until a token is available (the store's RateLimiter). */
  initializeLimit: { take(clientAddress: string): Promise<number> };
  counters: McpCounters;
}

const SESSION_HEADER = 'mcp-session-id';

/**
 * The 2025 revisions (2025-03-26, 2025-06-18, 2025-11-25): sessions on top of the SDK's stateless
 * streamable HTTP transport. Nothing in this server depends on session state (every tool reads the
 * current catalog), so a session is only a record in the SessionStore; each request is then served by
 * a fresh server exactly like the SDK's own stateless mode. That keeps memory per session to a few
 * numbers, and any replica that shares the store can serve any session.
 */
export function createSessionEraHandler(opts: SessionEraOptions) {
  async function serve(request: Request, parsedBody: unknown, protocolVersion?: string): Promise<Response> {
    const exchange = exchangeOf(parsedBody);
    const server = opts.createServer(exchange && protocolVersion ? { ...exchange, protocolVersion } : exchange);
    // JSON responses: no tool here streams progress, and a JSON body is cheaper than an SSE stream.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: opts.maxBodyBytes });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      await server.close();
    }
  }

  return async function handle(request: Request, parsedBody: unknown, clientAddress: string): Promise<Response> {
    const method = request.method.toUpperCase();
    // GET must open an SSE stream or be 405. Nothing is ever pushed from here, so it is 405 with or
    // without a session: the answer clients treat as "carry on with POST".
    if (method !== 'POST' && method !== 'DELETE') {
      return new McpMethodNotAllowedError().toResponse();
    }
    if (method === 'POST' && isInitializeRequest(parsedBody)) {
      // Checked before any work: one client cannot churn the session table (a token bucket per address, global across replicas).
      const wait = await opts.initializeLimit.take(clientAddress);
      if (wait > 0) {
        opts.counters.sessionsRefusedRateLimited++;
        return new SessionRateLimitedError(wait).toResponse(idOf(parsedBody));
      }
      const response = await serve(request, parsedBody);
      if (response.status !== 200) return response;
      const session = await opts.sessions.create(parsedBody.params.protocolVersion);
      if (!session) {
        opts.counters.sessionsRefusedFull++;
        return new SessionsFullError(Math.ceil(EVICTABLE_AFTER_MS / 1000)).toResponse(idOf(parsedBody));
      }
      opts.counters.sessionsCreated++;
      const headers = new Headers(response.headers);
      headers.set(SESSION_HEADER, session.id);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    // A body that is not JSON gets the transport's own answer (406, 415 or a -32700 parse error).
    if (method === 'POST' && parsedBody === undefined) return serve(request, undefined);

    const id = request.headers.get(SESSION_HEADER);
    if (!id) return new SessionIdRequiredError().toResponse();
    if (method === 'DELETE') {
      return (await opts.sessions.delete(id)) ? new Response(null, { status: 200 }) : sessionNotFound();
    }
    const session = await opts.sessions.touch(id);
    if (!session) return sessionNotFound();
    return serve(request, parsedBody, session.protocolVersion);
  };
}

/** The request a single (non-batch) body carries; unknown for batches, which get a complete server. */
function exchangeOf(body: unknown): Exchange | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (typeof method !== 'string') return undefined;
  return { method, ...(typeof params?.name === 'string' && { name: params.name }) };
}

/** The JSON-RPC id of a request body, echoed in an error answered for it. */
function idOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const sessionNotFound = () => new SessionNotFoundError().toResponse();
