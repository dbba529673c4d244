/**
 * The MCP endpoint's named errors at the HTTP layer (Fastify's lib/errors.js idea, like http/errors.ts
 * for REST): each carries its status, JSON-RPC code and headers, and answers in the shape the SDK's
 * transports use, with the request's id when one was read, else null.
 */
export abstract class McpHttpError extends Error {
  abstract readonly status: number;
  readonly code: number = -32000;
  readonly headers: Record<string, string> = {};

  toResponse(id: string | number | null = null): Response {
    return Response.json(
      { jsonrpc: '2.0', error: { code: this.code, message: this.message }, id },
      { status: this.status, headers: this.headers },
    );
  }
}

export class OriginNotAllowedError extends McpHttpError {
  override readonly name = 'OriginNotAllowedError';
  readonly status = 403;
  constructor(origin: string | null) {
    super(`Forbidden: Origin ${origin} is not allowed to call this MCP server`);
  }
}

/** GET (an SSE stream) and anything but POST and DELETE: nothing is ever pushed from this server. */
export class McpMethodNotAllowedError extends McpHttpError {
  override readonly name = 'McpMethodNotAllowedError';
  readonly status = 405;
  override readonly headers = { Allow: 'POST, DELETE' };
  constructor() {
    super('Method not allowed: this server sends no server-initiated messages; use POST.');
  }
}

export class SessionRateLimitedError extends McpHttpError {
  override readonly name = 'SessionRateLimitedError';
  readonly status = 429;
  override readonly headers: Record<string, string>;
  constructor(retryAfter: number) {
    super(`Too many sessions started from this address; retry in ${retryAfter} s.`);
    this.headers = { 'Retry-After': String(retryAfter) };
  }
}

export class SessionsFullError extends McpHttpError {
  override readonly name = 'SessionsFullError';
  readonly status = 503;
  override readonly headers: Record<string, string>;
  constructor(retryAfter: number) {
    super(`Every session slot is held by a client active within the last minute; retry in ${retryAfter} s.`);
    this.headers = { 'Retry-After': String(retryAfter) };
  }
}

export class SessionIdRequiredError extends McpHttpError {
  override readonly name = 'SessionIdRequiredError';
  readonly status = 400;
  constructor() {
    super('Bad Request: Mcp-Session-Id header is required (send initialize first to get one)');
  }
}

export class SessionNotFoundError extends McpHttpError {
  override readonly name = 'SessionNotFoundError';
  readonly status = 404;
  override readonly code = -32001;
  constructor() {
    super('Session not found: it ended or expired; send initialize to start a new one');
  }
}
