import type { Store } from '../store/index.js';
import { EVICTABLE_AFTER_MS, newSessionId, type SessionLimits, type SessionRecord, type SessionStore } from './sessions.js';

/**
 * Sessions in the shared store, for several replicas behind a load balancer: a session created on one
 * is accepted by all, with the same idle expiry and cap as in one process.
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
    const created = await this.store.mcpSessions.create(record, { ...this.limits, evictableAfterMs: EVICTABLE_AFTER_MS });
    return created ? record : null;
  }

  touch(id: string): Promise<SessionRecord | null> {
    return this.store.mcpSessions.touch(id, this.now(), this.limits.ttlMs);
  }

  delete(id: string): Promise<boolean> {
    return this.store.mcpSessions.delete(id, this.now(), this.limits.ttlMs);
  }
}
