/**
 * The hub's named errors (Fastify's lib/errors.js idea, like http/errors.ts for REST): each carries its
 * status and, when the client should come back, its Retry-After; the hub's error handler writes them
 * as the plain-text reason WebSub subscribers read.
 */
export abstract class HubError extends Error {
  abstract readonly status: number;
  readonly retryAfter?: number;
}

/** A field of the request is missing or malformed, or names an unknown topic. */
export class InvalidHubRequestError extends HubError {
  override readonly name = 'InvalidHubRequestError';
  readonly status = 400;
}

/** The callback is an address the hub never calls. */
export class RefusedCallbackError extends HubError {
  override readonly name = 'RefusedCallbackError';
  readonly status = 403;
  constructor(reason: string) {
    super(`hub.callback refused: ${reason}`);
  }
}

export class UnsupportedHubBodyError extends HubError {
  override readonly name = 'UnsupportedHubBodyError';
  readonly status = 415;
  constructor(form: string) {
    super(`the hub takes ${form} bodies`);
  }
}

/** Too many requests from this client address, or for this callback host. */
export class HubRateLimitedError extends HubError {
  override readonly name = 'HubRateLimitedError';
  readonly status = 429;
  constructor(
    scope: 'from this address' | 'for this callback host',
    override readonly retryAfter: number,
  ) {
    super(`too many hub requests ${scope}; retry later`);
  }
}

export class TooManyPendingError extends HubError {
  override readonly name = 'TooManyPendingError';
  readonly status = 503;
  override readonly retryAfter = 60;
  constructor() {
    super('too many verifications pending; retry later');
  }
}
