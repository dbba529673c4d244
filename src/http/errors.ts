import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorBody, type ErrorIssue, NotReadyError, StoreBusyError } from '../domain/index.js';

export function sendError(reply: FastifyReply, status: number, error: string, message: string, issues?: ErrorIssue[]) {
  const body: ErrorBody = { error, message, ...(issues || status === 400 ? { issues: issues ?? [] } : {}) };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * The REST surface's named errors (Fastify's lib/errors.js idea): each carries its status and contract
 * code, so a handler throws and the error handler writes the body.
 */
export abstract class HttpError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly issues?: ErrorIssue[];
}
export class NotFoundError extends HttpError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
  readonly code = 'not_found';
}
export class InvalidQueryError extends HttpError {
  override readonly name = 'InvalidQueryError';
  readonly status = 400;
  readonly code = 'invalid_query';
  constructor(
    override readonly issues: ErrorIssue[],
    message = 'The search parameters are not valid; see issues.',
  ) {
    super(message);
  }
}
export class InvalidDateError extends HttpError {
  override readonly name = 'InvalidDateError';
  readonly status = 400;
  readonly code = 'invalid_date';
  constructor(override readonly issues: ErrorIssue[]) {
    super('The date must be a real calendar date written YYYY-MM-DD.');
  }
}

/** The contract body of a named error, or null for anything else (Fastify's own errors, bugs). */
export function namedError(err: unknown): { status: number; code: string; message: string; issues?: ErrorIssue[] } | null {
  if (err instanceof HttpError) return { status: err.status, code: err.code, message: err.message, issues: err.issues };
  if (err instanceof NotReadyError) return { status: 503, code: 'not_ready', message: err.message };
  if (err instanceof StoreBusyError) return { status: 503, code: 'busy', message: err.message };
  return null;
}

const patternToRegExp = (url: string) =>
  new RegExp(
    `^${url
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\/:[^/]+/g, '/[^/]+')
      .replace(/\*/g, '.*')}/?$`,
  );

/**
 * Every error the REST surface returns is the contract's JSON body: unknown paths are 404, a known
 * path with another method is 405 with `Allow`, and unexpected failures never leak a stack trace.
 * Returns whether the server is shutting down (when every request gets the 503 answered here).
 */
export function registerErrorHandling(app: FastifyInstance): () => boolean {
  const routes: { re: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // CORS answers preflights on every path; that route says nothing about which paths exist.
    if (route.url === '*' || route.url === '/*') return;
    const re = patternToRegExp(route.url);
    const existing = routes.find((r) => r.re.source === re.source);
    if (existing) for (const m of methods) existing.methods.add(m);
    else routes.push({ re, methods: new Set(methods) });
  });

  const allowedOn = (path: string) => {
    const allowed = new Set<string>();
    for (const r of routes) if (r.re.test(path)) for (const m of r.methods) allowed.add(m);
    return allowed;
  };

  // Answered before CORS, whose strict preflight check would answer these with a plain-text 400: an
  // OPTIONS that is not a preflight asks what the path supports (RFC 9110 §9.3.7), and while the server
  // shuts down every request gets the contract's 503 rather than Fastify's own body.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (req, reply) => {
    if (closing)
      return sendError(reply.header('Connection', 'close'), 503, 'shutting_down', 'This server is shutting down; retry in a moment.');
    if (req.method !== 'OPTIONS' || (req.headers.origin && req.headers['access-control-request-method'])) return;
    const path = req.url.split('?')[0];
    const allowed = allowedOn(path);
    if (allowed.size === 0) return sendError(reply, 404, 'not_found', `Nothing is published at ${path}.`);
    return reply
      .code(204)
      .header('Allow', [...allowed, 'OPTIONS'].sort().join(', '))
      .send();
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = allowedOn(path);
    if (allowed.size > 0) {
      reply.header('Allow', [...allowed].sort().join(', '));
      return sendError(
        reply,
        405,
        'method_not_allowed',
        `${req.method} is not allowed on ${path}; allowed: ${[...allowed].sort().join(', ')}.`,
      );
    }
    return sendError(reply, 404, 'not_found', `Nothing is published at ${path}.`);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const named = namedError(err);
    if (named)
      return sendError(
        named.status === 503 ? reply.header('Retry-After', '5') : reply,
        named.status,
        named.code,
        named.message,
        named.issues,
      );
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return sendError(reply, status, 'internal_error', 'The server could not answer this request; it has been logged.');
    }
    const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
    return sendError(reply, status, code, err.message.replace(/^FST_\w+: /, ''), status === 400 ? [] : undefined);
  });
  return () => closing;
}

/** Errors Fastify's router raises before any route runs: a path that is not valid percent-encoding, a parameter over the length limit. */
export function frameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return sendError(reply, 414, 'uri_too_long', 'A path segment of this URL is longer than any published resource allows.');
  if (err.code === 'FST_ERR_BAD_URL') {
    const issue = {
      path: ['path'],
      code: 'invalid_percent_encoding',
      message: 'The path contains a % that is not followed by two hexadecimal digits of valid UTF-8.',
    };
    return sendError(reply, 400, 'bad_url', 'The URL path is not valid percent-encoding.', [issue]);
  }
  reply.log.error({ err }, 'request failed');
  return sendError(reply, 500, 'internal_error', 'The server could not answer this request; it has been logged.');
}
