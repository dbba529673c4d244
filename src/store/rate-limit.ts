import type { Store } from './store.js';

/**
 * The policy over the store's token buckets: a scope, its rate and burst, and a sweep of idle buckets now and then. Each user is a scope (the hub's
 * per-client and per-callback-host limits, MCP session creation), one table for all.
 */
export class RateLimiter {
  private takes = 0;

  constructor(
    private readonly store: Store,
    /** Namespace of the keys, e.g. `hub-client` or `mcp-session`. */
    private readonly scope: string,
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token; returns 0 when allowed, otherwise the seconds until a token is available. */
  async take(key: string): Promise<number> {
    const now = this.now();
    const wait = await this.store.rateLimits.take(`${this.scope}:${key}`, { perMinute: this.perMinute, burst: this.burst }, now);
    if (++this.takes % 1000 === 0) await this.sweep(now);
    return wait;
  }

  /** Buckets idle long enough to be full again carry no information. */
  private async sweep(now: number): Promise<void> {
    const fullAfterMs = (this.burst / this.perMinute) * 60_000;
    await this.store.rateLimits.sweep(`${this.scope}:`, now - fullAfterMs);
  }
}
