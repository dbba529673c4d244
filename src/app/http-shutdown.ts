import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** How often a closing server closes the connections that have gone idle. */
const IDLE_LOOK_MS = 100;
/** setTimeout's longest wait; a longer grace would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Closes the HTTP surfaces: no new connections; the responses under way finish, then their connections
 * close at once. A response whose client stopped reading (a large body left half-read, on purpose or not) never
 * finishes, and held the shutdown until Fastify's keep-alive timeout or for ever: after `graceMs` the
 * connections still open are closed.
 */
export async function closeHttp(app: FastifyInstance, graceMs: number, log: Logger): Promise<void> {
  const server = app.server;
  let open = true;
  server.once('close', () => {
    open = false;
  });
  const closed = app.close();
  // Node closes only the connections idle when the close begins: one whose response was under way then
  // stayed open after it, kept alive for Fastify's 72 s.
  const idle = setInterval(() => server.closeIdleConnections(), IDLE_LOOK_MS);
  const cut = setTimeout(
    () => {
      // Only if connections are still open: slow close hooks after the last one closed are not a cut.
      if (!open) return;
      log.warn({ grace_ms: graceMs }, 'shutdown grace is over: closing the connections still open');
      server.closeAllConnections();
    },
    Math.min(graceMs, LONGEST_TIMER_MS),
  );
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(cut);
  }
}
