import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, DialectAdapter } from './dialect.js';
import { activate, deleteSubscriptionWhere, iso } from './hub-subscriptions.js';
import type { WebsubVerificationTable } from './schema.js';

/** A subscribe/unsubscribe request as the hub accepted it (the store's input; websub's parsed request fits it). */
export interface VerificationRequest {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number | null;
}

/** A claimed verification job. */
export type Verification = Omit<WebsubVerificationTable, 'id'> & { id: number; claim_token: string };

/**
 * Verifications of intent waiting to run. A worker claims a batch by moving its `due_at` past a lease
 * and stamping a claim token, so a killed worker's rows simply become due again when the lease ends.
 */
export class HubVerificationRepository {
  constructor(
    private readonly db: Db,
    private readonly adapter: DialectAdapter,
  ) {}

  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('websub_verifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async isPending(topic: string, callback: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('websub_verifications')
      .select('id')
      .where('topic', '=', topic)
      .where('callback', '=', callback)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Queues a request for verification; a newer request for the same (topic, callback) replaces the older one. */
  async queue(r: VerificationRequest, now: number): Promise<void> {
    await this.db
      .insertInto('websub_verifications')
      .values({
        mode: r.mode,
        topic: r.topic,
        callback: r.callback,
        secret: r.secret,
        lease_seconds: r.leaseSeconds,
        seq: 1,
        due_at: now,
        created_at: iso(now),
      })
      .onConflict((oc) =>
        oc.columns(['topic', 'callback']).doUpdateSet((eb) => ({
          mode: eb.ref('excluded.mode'),
          secret: eb.ref('excluded.secret'),
          lease_seconds: eb.ref('excluded.lease_seconds'),
          seq: sql<number>`websub_verifications.seq + 1`,
          created_at: eb.ref('excluded.created_at'),
          // A row being verified keeps its claim; its worker sees the new seq and hands the row back.
          due_at: sql<number>`case when websub_verifications.claim_token is not null and websub_verifications.due_at > ${now} then websub_verifications.due_at else ${now} end`,
        })),
      )
      .execute();
  }

  async claim(limit: number, now: number, leaseMs: number): Promise<Verification[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await this.adapter
        .lockForClaim(trx.selectFrom('websub_verifications').selectAll().where('due_at', '<=', now).orderBy('due_at').limit(limit))
        .execute();
      if (rows.length === 0) return [];
      const token = randomUUID();
      const until = now + leaseMs;
      await trx
        .updateTable('websub_verifications')
        .set({ due_at: until, claimed_until: until, claim_token: token })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), claim_token: token }));
    });
  }

  /**
   * Applies a verified (or failed) request. Returns 'superseded' when the row was replaced by a newer
   * request meanwhile: then nothing is applied and the row is handed back so the newer request gets verified.
   */
  async complete(v: Verification, verified: boolean, now: number): Promise<'applied' | 'superseded' | 'lost'> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.adapter
        .lockRow(trx.selectFrom('websub_verifications').select(['seq', 'claim_token']).where('id', '=', v.id))
        .executeTakeFirst();
      if (!current || current.claim_token !== v.claim_token) return 'lost';
      if (current.seq !== v.seq) {
        await trx
          .updateTable('websub_verifications')
          .set({ due_at: now, claimed_until: null, claim_token: null })
          .where('id', '=', v.id)
          .execute();
        return 'superseded';
      }
      await trx.deleteFrom('websub_verifications').where('id', '=', v.id).execute();
      if (!verified) return 'applied';
      if (v.mode === 'subscribe')
        await activate(trx, { topic: v.topic, callback: v.callback, secret: v.secret, leaseSeconds: v.lease_seconds ?? 0 }, now);
      else await deleteSubscriptionWhere(trx, v.topic, v.callback);
      return 'applied';
    });
  }
}
