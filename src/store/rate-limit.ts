import { sql } from 'kysely';
import type { Store } from './store.js';

/**
 * Token buckets kept in the store and updated by one atomic upsert, so a limit is global across the
 * replicas that share a PostgreSQL database (and survives restarts). A bucket holds `burst` tokens and
 * refills at `perMinute`; idle buckets are swept now and then. Each user is a scope (the hub's
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
    const rate = this.perMinute / 60_000;
    const min = this.store.dialect === 'postgres' ? sql.raw('least') : sql.raw('min');
    // Tokens available now: the stored ones plus the refill since, capped at the burst.
    // Explicit casts: PostgreSQL would otherwise infer the parameters' types from the bigint column.
    const refilled = sql<number>`${min}(cast(${this.burst} as double precision), rate_limits.tokens + cast(${now} - rate_limits.at as double precision) * cast(${rate} as double precision))`;
    const row = await this.store.db
      .insertInto('rate_limits')
      .values({ key: `${this.scope}:${key}`, tokens: this.burst - 1, at: now, allowed: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          tokens: sql`case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end`,
          allowed: sql`case when ${refilled} >= 1 then 1 else 0 end`,
          at: now,
        }),
      )
      .returning(['tokens', 'allowed'])
      .executeTakeFirstOrThrow();
    if (++this.takes % 1000 === 0) await this.sweep(now);
    if (Number(row.allowed) === 1) return 0;
    return Math.max(1, Math.ceil((1 - Number(row.tokens)) / rate / 1000));
  }

  /** Buckets idle long enough to be full again carry no information. */
  private async sweep(now: number): Promise<void> {
    const fullAfterMs = (this.burst / this.perMinute) * 60_000;
    await this.store.db
      .deleteFrom('rate_limits')
      .where('key', 'like', `${this.scope}:%`)
      .where('at', '<', now - fullAfterMs)
      .execute();
  }
}
