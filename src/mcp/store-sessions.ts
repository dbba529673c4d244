import { sql } from 'kysely';
import type { Store } from '../store/index.js';
import { EVICTABLE_AFTER_MS, newSessionId, type SessionLimits, type SessionRecord, type SessionStore } from './sessions.js';

const toRecord = (r: { id: string; protocol_version: string; created_at: number; last_seen_at: number }): SessionRecord => ({
  id: r.id,
  protocolVersion: r.protocol_version,
  createdAt: Number(r.created_at),
  lastSeenAt: Number(r.last_seen_at),
});

/**
 * Sessions in the shared store, for several replicas behind a load balancer: a session created on one
 * is accepted by all, with the same idle expiry and cap as in one process. Each call is one statement
 * (creation one transaction), so concurrent replicas cannot resurrect an expired or deleted session.
 */
export class StoreSessionStore implements SessionStore {
  constructor(
    private readonly store: Store,
    private readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {}

  async create(protocolVersion: string): Promise<SessionRecord | null> {
    const t = this.now();
    const record: SessionRecord = { id: newSessionId(), protocolVersion, createdAt: t, lastSeenAt: t };
    return this.store.transaction(async (trx) => {
      // Creations queue on one lock so the cap holds across replicas.
      if (this.store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('reviewcast_mcp_sessions'))`.execute(trx);
      await trx
        .deleteFrom('mcp_sessions')
        .where('last_seen_at', '<=', t - this.limits.ttlMs)
        .execute();
      const { n } = await trx
        .selectFrom('mcp_sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const excess = Number(n) - this.limits.maxSessions + 1;
      if (excess > 0) {
        // Only sessions idle for EVICTABLE_AFTER_MS make room; if too few are, the new one is refused.
        const oldest = trx
          .selectFrom('mcp_sessions')
          .select('id')
          .where('last_seen_at', '<=', t - EVICTABLE_AFTER_MS)
          .orderBy('last_seen_at')
          .limit(excess);
        const { numDeletedRows } = await trx.deleteFrom('mcp_sessions').where('id', 'in', oldest).executeTakeFirst();
        if (Number(numDeletedRows) < excess) return null;
      }
      await trx
        .insertInto('mcp_sessions')
        .values({ id: record.id, protocol_version: protocolVersion, created_at: t, last_seen_at: t })
        .execute();
      return record;
    });
  }

  async touch(id: string): Promise<SessionRecord | null> {
    const t = this.now();
    const row = await this.store.db
      .updateTable('mcp_sessions')
      .set({ last_seen_at: t })
      .where('id', '=', id)
      .where('last_seen_at', '>', t - this.limits.ttlMs)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const t = this.now();
    const r = await this.store.db
      .deleteFrom('mcp_sessions')
      .where('id', '=', id)
      .where('last_seen_at', '>', t - this.limits.ttlMs)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
