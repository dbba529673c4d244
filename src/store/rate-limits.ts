import { sql } from 'kysely';
import type { Db, DialectAdapter } from './dialect.js';

/**
 * Token buckets updated by one atomic upsert, so a limit is global across the replicas that share a
 * PostgreSQL database (and survives restarts). A bucket holds `burst` tokens and refills at `perMinute`.
 */
export class RateLimitRepository {
  constructor(
    private readonly db: Db,
    private readonly adapter: DialectAdapter,
  ) {}

  /** Takes one token from `key`'s bucket; returns 0 when allowed, otherwise the seconds until a token is available. */
  async take(key: string, bucket: { perMinute: number; burst: number }, now: number): Promise<number> {
    const { perMinute, burst } = bucket;
    const rate = perMinute / 60_000;
    // Tokens available now: the stored ones plus the refill since, capped at the burst.
    // Explicit casts: PostgreSQL would otherwise infer the parameters' types from the bigint column.
    const refilled = sql<number>`${this.adapter.least}(cast(${burst} as double precision), rate_limits.tokens + cast(${now} - rate_limits.at as double precision) * cast(${rate} as double precision))`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, tokens: burst - 1, at: now, allowed: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          tokens: sql`case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end`,
          allowed: sql`case when ${refilled} >= 1 then 1 else 0 end`,
          at: now,
        }),
      )
      .returning(['tokens', 'allowed'])
      .executeTakeFirstOrThrow();
    if (Number(row.allowed) === 1) return 0;
    return Math.max(1, Math.ceil((1 - Number(row.tokens)) / rate / 1000));
  }

  /** Deletes the buckets of keys starting with `prefix` untouched since `idleBefore`. */
  async sweep(prefix: string, idleBefore: number): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', 'like', `${prefix}%`).where('at', '<', idleBefore).execute();
  }
}
