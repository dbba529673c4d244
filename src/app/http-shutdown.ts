import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * Closes the HTTP surfaces: no new connections, the responses under way finish, idle connections close.
 * A response whose client stopped reading (a large body left half-read, on purpose or not) never
 * finishes and held the shutdown until Fastify's keep-alive timeout or for ever: after `graceMs` the
 * connections still open are closed.
 */
export async function closeHttp(app: FastifyInstance, graceMs: number, log: Logger): Promise<void> {
  const closed = app.close();
  const cut = setTimeout(() => {
    log.warn({ grace_ms: graceMs }, 'shutdown grace is over: closing the connections still open');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await closed;
  } finally {
    clearTimeout(cut);
  }
}
