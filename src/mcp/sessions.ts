import { randomBytes } from 'node:crypto';

/** What the server remembers of a session-era (2025) MCP session. Requests are served statelessly; this is the whole session. */
export interface SessionRecord {
  id: string;
  /** The revision the client asked for in `initialize`. */
  protocolVersion: string;
  createdAt: number;
  lastSeenAt: number;
}

/**
 * Where sessions live. Async so an implementation shared by replicas (a PostgreSQL table, or ids that
 * verify themselves with an HMAC) fits behind the same calls; nothing else holds per-session state.
 */
export interface SessionStore {
  /**
   * A new session; null when the cap is reached and every session was active within the last
   * `EVICTABLE_AFTER_MS` (a live client is never cut off to make room for a new one).
   */
  create(protocolVersion: string): Promise<SessionRecord | null>;
  /** The live session with this id, its idle clock restarted; null when unknown, ended or expired. */
  touch(id: string): Promise<SessionRecord | null>;
  /** False when there was no live session with this id. */
  delete(id: string): Promise<boolean>;
}

export interface SessionLimits {
  /** Idle time after which a session is gone. */
  ttlMs: number;
  /** Live sessions at most; creating one more evicts the longest idle, if it has been idle a minute. */
  maxSessions: number;
}

/** Only a session idle at least this long may be evicted to make room for a new one. */
export const EVICTABLE_AFTER_MS = 60_000;

/** 32 random bytes as base64url: unguessable, and only visible ASCII as the transport spec requires. */
export const newSessionId = () => randomBytes(32).toString('base64url');

/**
 * Sessions of one process. The map is kept in order of last use (touch moves a session to the end),
 * so the expired and the longest-idle sessions are always at the front: expiry sweeps and eviction
 * cost O(1) per session removed, and memory stays bounded by `maxSessions` whatever clients do.
 * When the front session was active within EVICTABLE_AFTER_MS, so was every other: creation is refused.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  async create(protocolVersion: string): Promise<SessionRecord | null> {
    const t = this.now();
    this.sweep(t);
    while (this.sessions.size >= this.limits.maxSessions) {
      const [id, longestIdle] = this.sessions.entries().next().value!;
      if (t - longestIdle.lastSeenAt < EVICTABLE_AFTER_MS) return null;
      this.sessions.delete(id);
    }
    const record: SessionRecord = { id: newSessionId(), protocolVersion, createdAt: t, lastSeenAt: t };
    this.sessions.set(record.id, record);
    return record;
  }

  async touch(id: string): Promise<SessionRecord | null> {
    const t = this.now();
    this.sweep(t);
    const record = this.sessions.get(id);
    if (!record) return null;
    this.sessions.delete(id);
    record.lastSeenAt = t;
    this.sessions.set(id, record);
    return record;
  }

  async delete(id: string): Promise<boolean> {
    this.sweep(this.now());
    return this.sessions.delete(id);
  }

  private sweep(t: number): void {
    for (const [id, record] of this.sessions) {
      if (t - record.lastSeenAt < this.limits.ttlMs) break;
      this.sessions.delete(id);
    }
  }
}
