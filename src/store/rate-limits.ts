import { sql } from 'kysely';
import type { Db, DialectAdapter } from './dialect.js';

type Bucket = { perMinute: number; burst: number };

/** Token buckets: a bucket holds `burst` tokens and refills at `perMinute`. */
export interface RateLimitRepository {
  /** Takes one token from `key`'s bucket; returns 0 when allowed, otherwise the seconds until a token is available. */
  take(key: string, bucket: Bucket, now: number): Promise<number>;
  /** Deletes the buckets of keys starting with `prefix` untouched since `idleBefore`. */
  sweep(prefix: string, idleBefore: number): Promise<void>;
}

/** Where the database is shared by processes, buckets live in it; where one process owns it, in that process. */
export const rateLimitsFor = (db: Db, adapter: DialectAdapter): RateLimitRepository =>
  adapter.sharedByProcesses ? new StoredBuckets(db, adapter) : new MemoryBuckets();

const secondsUntilToken = (tokens: number, perMinute: number) => Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute));

/**
 * Buckets updated by one atomic upsert, so a limit is global across the replicas that share a
 * PostgreSQL database (and survives restarts).
 */
class StoredBuckets implements RateLimitRepository {
  constructor(
    private readonly db: Db,
    private readonly adapter: DialectAdapter,
  ) {}

  async take(key: string, bucket: Bucket, now: number): Promise<number> {
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
    return secondsUntilToken(Number(row.tokens), perMinute);
  }

  async sweep(prefix: string, idleBefore: number): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', 'like', `${prefix}%`).where('at', '<', idleBefore).execute();
  }
}

/**
 * The same buckets in process memory, for a database one process owns (SQLite): a request never
 * writes to the file, so it never waits for a CLI import's transaction to release the write lock.
 */
class MemoryBuckets implements RateLimitRepository {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  async take(key: string, { perMinute, burst }: Bucket, now: number): Promise<number> {
    const b = this.buckets.get(key);
    const refilled = b ? Math.min(burst, b.tokens + ((now - b.at) * perMinute) / 60_000) : burst;
    const allowed = refilled >= 1;
    this.buckets.set(key, { tokens: allowed ? refilled - 1 : refilled, at: now });
    return allowed ? 0 : secondsUntilToken(refilled, perMinute);
  }

  async sweep(prefix: string, idleBefore: number): Promise<void> {
    for (const [key, b] of this.buckets) if (key.startsWith(prefix) && b.at < idleBefore) this.buckets.delete(key);
  }
}
