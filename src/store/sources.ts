import { randomBytes } from 'node:crypto';
import type { Result, StoredSource } from '../domain/index.js';
import { sourceOf } from './codec.js';
import type { Db } from './dialect.js';

export interface Claimed {
  source: StoredSource;
  token: string;
}

/** A sync's outcome: where it got to and how many reviews it saw, or why it failed (having stored nothing). */
export type SyncResult = Result<{ checkpoint: string | null; full: boolean; seen: number }, string>;

/** The configured review sources, their checkpoints and the one-replica-at-a-time sync claim. */
export class SourceRepository {
  constructor(private readonly db: Db) {}

  async add(row: Pick<StoredSource, 'name' | 'kind' | 'settings'>, now: number): Promise<'added' | 'updated'> {
    const existing = await this.get(row.name);
    if (existing) {
      // New settings make the next sync a full one: the account or location may have changed.
      await this.db
        .updateTable('review_sources')
        .set({ kind: row.kind, settings: row.settings, checkpoint: null, last_full_at: null, due_at: now })
        .where('name', '=', row.name)
        .execute();
      return 'updated';
    }
    await this.db
      .insertInto('review_sources')
      .values({ ...row, due_at: now, reviews_seen: 0, created_at: new Date(now).toISOString() })
      .execute();
    return 'added';
  }

  async list(): Promise<StoredSource[]> {
    return (await this.db.selectFrom('review_sources').selectAll().orderBy('name').execute()).map(sourceOf);
  }

  async get(name: string): Promise<StoredSource | null> {
    const row = await this.db.selectFrom('review_sources').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? sourceOf(row) : null;
  }

  async remove(name: string): Promise<boolean> {
    const r = await this.db.deleteFrom('review_sources').where('name', '=', name).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * Takes the claim on one source for `leaseMs`: a due one (or `name`, due or not, when asked by
   * name). The conditional update is the lock: of several replicas racing, one row update wins. A
   * claim whose holder died expires, and the next claimer starts again from the stored checkpoint.
   */
  async claim(now: number, leaseMs: number, name?: string): Promise<Claimed | null> {
    let q = this.db
      .selectFrom('review_sources')
      .select('name')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]));
    q = name ? q.where('name', '=', name) : q.where('due_at', '<=', now);
    for (const { name: candidate } of await q.orderBy('due_at').execute()) {
      const token = randomBytes(12).toString('base64url');
      const r = await this.db
        .updateTable('review_sources')
        .set({ claimed_until: now + leaseMs, claim_token: token })
        .where('name', '=', candidate)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) continue;
      const source = await this.get(candidate);
      if (source) return { source, token };
    }
    return null;
  }

  /** Keeps a claim alive while a long sync runs; false when it was lost (expired and taken by another). */
  async extendClaim(c: Claimed, until: number): Promise<boolean> {
    const r = await this.db
      .updateTable('review_sources')
      .set({ claimed_until: until })
      .where('name', '=', c.source.name)
      .where('claim_token', '=', c.token)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Records a sync's outcome, schedules the next one and releases the claim (only the claim holder can). */
  async finish(c: Claimed, result: SyncResult, now: number, nextDue: number): Promise<void> {
    const common = { claimed_until: null, claim_token: null, due_at: nextDue };
    const set = result.ok
      ? {
          ...common,
          checkpoint: result.value.checkpoint,
          last_success_at: now,
          last_error: null,
          ...(result.value.full ? { last_full_at: now } : {}),
        }
      : { ...common, last_error: result.error, last_error_at: now };
    await this.db
      .updateTable('review_sources')
      .set((eb) => ({ ...set, reviews_seen: eb('reviews_seen', '+', result.ok ? result.value.seen : 0) }))
      .where('name', '=', c.source.name)
      .where('claim_token', '=', c.token)
      .execute();
  }
}
