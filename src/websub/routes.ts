import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotReadyError, PATHS, StoreBusyError } from '../domain/index.js';
import { RateLimiter } from '../store/index.js';
import { canonicalHost } from './address.js';
import { HubError, HubRateLimitedError, TooManyPendingError, UnsupportedHubBodyError } from './errors.js';
import { refuseUrl } from './outbound.js';
import { redactUrl } from './redact.js';
import { parseHubRequest } from './request.js';
import { topicUrls } from './topics.js';
import type { HubDeps, HubWorker } from './worker.js';

const FORM = 'application/x-www-form-urlencoded';
const MAX_BODY_BYTES = 16 * 1024;

/**
 * Mounts POST /api/websub/hub. A valid request is stored for verification and answered 202 before
 * any outbound request (the worker verifies it asynchronously); anything else is a 4xx/5xx with a
 * plain-text reason. Pass the local `worker` so it starts verifying at once instead of at its next poll.
 */
export function registerHub(app: FastifyInstance, deps: HubDeps & { worker?: HubWorker }): void {
  const { store, config, log, worker } = deps;
  const perClient = new RateLimiter(store, 'hub-client', config.rateLimitPerClient.perMinute, config.rateLimitPerClient.burst);
  const perCallbackHost = new RateLimiter(
    store,
    'hub-callback-host',
    config.rateLimitPerCallbackHost.perMinute,
    config.rateLimitPerCallbackHost.burst,
  );

  const text = (reply: FastifyReply, status: number, message: string) => {
    if (status >= 400 && worker) status === 429 ? worker.counters.requestsRateLimited++ : worker.counters.requestsRejected++;
    return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
  };

  app.register(async (scope) => {
    // Own form parser in this scope only: whatever the app registers elsewhere, the hub sees raw fields
    // (dots in names kept, first value of a repeated field wins) under a small body limit.
    if (scope.hasContentTypeParser(FORM)) scope.removeContentTypeParser(FORM);
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) => {
      done(null, new URLSearchParams(body as string));
    });
    scope.setErrorHandler((err: { statusCode?: number; message?: string }, _req, reply) => {
      if (err instanceof HubError) {
        if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
        return text(reply, err.status, err.message);
      }
      if (err instanceof NotReadyError) return text(reply, 503, `not ready: ${err.message}`);
      if (err instanceof StoreBusyError) return text(reply.header('retry-after', '5'), 503, `busy: ${err.message}`);
      // 4xx from Fastify (body too large, bad encoding) keep their status and message.
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
      if (status === 500) log.error({ err }, 'websub: hub request failed');
      return text(reply, status, status === 500 ? 'internal error' : (err.message ?? 'bad request'));
    });

    scope.post(PATHS.hub, async (req, reply) => {
      const wait = await perClient.take(req.ip);
      if (wait > 0) throw new HubRateLimitedError('from this address', wait);
      if (!(req.body instanceof URLSearchParams)) throw new UnsupportedHubBodyError(FORM);

      const parsed = parseHubRequest(req.body, topicUrls(deps.catalog()), config, (u) => refuseUrl(u, config.allowPrivateCallbacks));
      if (!parsed.ok) throw parsed.error;
      const r = parsed.value;

      // By canonical host name, not host:port, so neither cycling ports nor respelling the host
      // (case, a trailing dot, Unicode for punycode) escapes the limit.
      const hostWait = await perCallbackHost.take(canonicalHost(new URL(r.callback).hostname));
      if (hostWait > 0) throw new HubRateLimitedError('for this callback host', hostWait);
      if (
        (await store.hubVerifications.pendingCount()) >= config.maxPendingVerifications &&
        !(await store.hubVerifications.isPending(r.topic, r.callback))
      ) {
        throw new TooManyPendingError();
      }
      await store.hubVerifications.queue(r, Date.now());
      if (worker) worker.counters.requestsAccepted++;
      // Never log the secret; the callback only as origin and path.
      log.info(
        {
          mode: r.mode,
          topic: r.topic,
          callback: redactUrl(r.callback),
          lease_seconds: r.leaseSeconds ?? undefined,
          signed: r.secret !== null,
        },
        'websub: request accepted',
      );
      worker?.kick();
      return text(reply, 202, `${r.mode} request accepted; verification of intent will follow`);
    });
  });
}
