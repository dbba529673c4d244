/**
 * Token buckets keyed by a string (client address, callback host). In memory and per process: good
 * enough to blunt floods; the pending-verification cap in the store is the hard, shared limit.
 * The map is bounded: beyond `maxKeys` the oldest key is forgotten (which only ever lets a request through).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly maxKeys = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token; returns 0 when allowed, otherwise the seconds until a token is available. */
  take(key: string): number {
    const now = this.now();
    const refillPerMs = this.perMinute / 60_000;
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(this.burst, b.tokens + (now - b.at) * refillPerMs) : this.burst;
    // Re-insert so Map order is least-recently-used first.
    this.buckets.delete(key);
    if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000));
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return 0;
  }
}
