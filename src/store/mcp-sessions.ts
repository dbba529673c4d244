import type { Db, DialectAdapter } from './dialect.js';
import type { McpSessionTable } from './schema.js';

/** A session-era MCP session as stored; times in epoch milliseconds. */
export interface McpSession {
  id: string;
  protocolVersion: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface McpSessionLimits {
  ttlMs: number;
  maxSessions: number;
  /** Only sessions idle at least this long may be evicted to make room for a new one. */
  evictableAfterMs: number;
}

const toSession = (r: McpSessionTable): McpSession => ({
  id: r.id,
  protocolVersion: r.protocol_version,
  createdAt: Number(r.created_at),
  lastSeenAt: Number(r.last_seen_at),
});

/**
 * Sessions shared by replicas: each call is one statement (creation one transaction, queued on one
 * lock so the cap holds across replicas), so concurrent replicas cannot resurrect an expired or deleted session.
 */
export class McpSessionRepository {
  constructor(
    private readonly db: Db,
    private readonly adapter: DialectAdapter,
  ) {}

  /** Stores `s` unless the cap is reached and too few sessions are idle enough to evict: then false. */
  async create(s: McpSession, limits: McpSessionLimits): Promise<boolean> {
    const t = s.createdAt;
    return this.db.transaction().execute(async (trx) => {
      await this.adapter.advisoryLock(trx, 'reviewcast_mcp_sessions');
      await trx
        .deleteFrom('mcp_sessions')
        .where('last_seen_at', '<=', t - limits.ttlMs)
        .execute();
      const { n } = await trx
        .selectFrom('mcp_sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const excess = Number(n) - limits.maxSessions + 1;
      if (excess > 0) {
        const oldest = trx
          .selectFrom('mcp_sessions')
          .select('id')
          .where('last_seen_at', '<=', t - limits.evictableAfterMs)
          .orderBy('last_seen_at')
          .limit(excess);
        const { numDeletedRows } = await trx.deleteFrom('mcp_sessions').where('id', 'in', oldest).executeTakeFirst();
        if (Number(numDeletedRows) < excess) return false;
      }
      await trx
        .insertInto('mcp_sessions')
        .values({ id: s.id, protocol_version: s.protocolVersion, created_at: t, last_seen_at: s.lastSeenAt })
        .execute();
      return true;
    });
  }

  /** The live session with this id, its idle clock restarted at `now`; null when unknown or idle past `ttlMs`. */
  async touch(id: string, now: number, ttlMs: number): Promise<McpSession | null> {
    const row = await this.db
      .updateTable('mcp_sessions')
      .set({ last_seen_at: now })
      .where('id', '=', id)
      .where('last_seen_at', '>', now - ttlMs)
      .returningAll()
      .executeTakeFirst();
    return row ? toSession(row) : null;
  }

  async delete(id: string, now: number, ttlMs: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('mcp_sessions')
      .where('id', '=', id)
      .where('last_seen_at', '>', now - ttlMs)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** How many sessions are stored (live or not yet swept). */
  async count(): Promise<number> {
    const { n } = await this.db
      .selectFrom('mcp_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}
