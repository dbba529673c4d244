import type { FastifyCorsOptions } from '@fastify/cors';

/** Any origin may read. POST and DELETE are for /mcp, whose own Origin policy (403) still decides who may call it. */
export const CORS = {
  origin: '*',
  methods: ['GET', 'HEAD', 'POST', 'DELETE'],
  allowedHeaders: [
    'Content-Type',
    'Accept',
    'If-None-Match',
    'If-Modified-Since',
    'Mcp-Session-Id',
    'MCP-Protocol-Version',
    'Mcp-Method',
    'Mcp-Name',
    'Last-Event-ID',
  ],
  exposedHeaders: ['ETag', 'Last-Modified', 'Link', 'Content-Encoding', 'Mcp-Session-Id'],
  maxAge: 86_400,
} satisfies FastifyCorsOptions;

/**
 * What @fastify/cors adds to every answer that is not a preflight, given the options above (one origin
 * string, no credentials): for answers written without it, by the fast path.
 */
export const CORS_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': CORS.origin,
  'access-control-expose-headers': CORS.exposedHeaders.join(', '),
};
