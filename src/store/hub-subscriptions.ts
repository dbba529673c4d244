import type { Db, DialectAdapter, Queryable } from './dialect.js';
import type { WebsubSubscriptionTable } from './schema.js';

export const iso = (ms: number) => new Date(ms).toISOString();

/** One subscription as operators see it: never the secret, only whether there is one. */
export interface SubscriptionInfo {
  id: number;
  topic: string;
  callback: string;
  signed: boolean;
  lease_seconds: number;
  expires_at: string;
  expired: boolean;
  consecutive_failures: number;
  pending_delivery: boolean;
  created_at: string;
  updated_at: string;
}

/** A verified subscription to store (what a verification activates, or a test or bench seeds). */
export interface SubscriptionInput {
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number;
}

export type HubGauges = { activeSubscriptions: number; pendingVerifications: number; pendingDeliveries: number };

export async function deleteSubscriptionById(trx: Queryable, id: number): Promise<boolean> {
  await trx.deleteFrom('websub_deliveries').where('subscription_id', '=', id).execute();
  const r = await trx.deleteFrom('websub_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function deleteSubscriptionWhere(trx: Queryable, topic: string, callback: string): Promise<void> {
  const sub = await trx
    .selectFrom('websub_subscriptions')
    .select('id')
    .where('topic', '=', topic)
    .where('callback', '=', callback)
    .executeTakeFirst();
  if (sub) await deleteSubscriptionById(trx, Number(sub.id));
}

export async function activate(trx: Queryable, s: SubscriptionInput, now: number): Promise<void> {
  const row: Omit<WebsubSubscriptionTable, 'id'> = {
    topic: s.topic,
    callback: s.callback,
    secret: s.secret,
    lease_seconds: s.leaseSeconds,
    expires_at: now + s.leaseSeconds * 1000,
    failures: 0,
    last_delivered_etag: null,
    created_at: iso(now),
    updated_at: iso(now),
  };
  await trx
    .insertInto('websub_subscriptions')
    .values(row)
    .onConflict((oc) =>
      // Re-subscribing renews the lease and replaces (or drops) the secret.
      oc.columns(['topic', 'callback']).doUpdateSet((eb) => ({
        secret: eb.ref('excluded.secret'),
        lease_seconds: eb.ref('excluded.lease_seconds'),
        expires_at: eb.ref('excluded.expires_at'),
        failures: 0,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** The hub's active subscriptions: what operators list and remove, what leases expire, what metrics count. */
export class HubSubscriptionRepository {
  constructor(
    private readonly db: Db,
    private readonly adapter: DialectAdapter,
  ) {}

  /** For `reviewcast subscriptions list`: every stored subscription, oldest first. */
  async list(now = Date.now()): Promise<SubscriptionInfo[]> {
    const rows = await this.db
      .selectFrom('websub_subscriptions as s')
      .leftJoin('websub_deliveries as d', 'd.subscription_id', 's.id')
      .select([
        's.id',
        's.topic',
        's.callback',
        's.secret',
        's.lease_seconds',
        's.expires_at',
        's.failures',
        's.created_at',
        's.updated_at',
        'd.subscription_id as job',
      ])
      .orderBy('s.id')
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      topic: r.topic,
      callback: r.callback,
      signed: r.secret !== null,
      lease_seconds: r.lease_seconds,
      expires_at: new Date(Number(r.expires_at)).toISOString(),
      expired: Number(r.expires_at) <= now,
      consecutive_failures: r.failures,
      pending_delivery: r.job !== null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }

  /**
   * Removes one subscription by id, or every subscription (all topics) of a callback URL. No
   * verification and no notice to the subscriber: an operator's decision. Returns how many were removed.
   */
  async remove(idOrCallback: number | string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const asId = typeof idOrCallback === 'number' ? idOrCallback : /^\d+$/.test(idOrCallback) ? Number(idOrCallback) : null;
      let q = trx.selectFrom('websub_subscriptions').select('id');
      if (asId !== null) q = q.where('id', '=', asId);
      else {
        let callback = idOrCallback as string;
        try {
          callback = new URL(callback).href;
        } catch {
          // Not a URL: matched as given, which finds nothing unless stored that way.
        }
        q = q.where('callback', '=', callback);
      }
      const rows = await q.execute();
      let removed = 0;
      for (const r of rows) if (await deleteSubscriptionById(trx, Number(r.id))) removed++;
      return removed;
    });
  }

  async removeById(id: number): Promise<boolean> {
    return deleteSubscriptionById(this.db, id);
  }

  /** Stores verified subscriptions as a verification would (renewing existing ones). */
  async activate(subs: readonly SubscriptionInput[], now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const s of subs) await activate(trx, s, now);
    });
  }

  /** Deletes subscriptions whose lease ran out (and their queued jobs). Returns how many. */
  async purgeExpired(now: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const expired = await trx.selectFrom('websub_subscriptions').select('id').where('expires_at', '<=', now).execute();
      if (expired.length === 0) return 0;
      const ids = expired.map((r) => Number(r.id));
      await trx.deleteFrom('websub_deliveries').where('subscription_id', 'in', ids).execute();
      await trx.deleteFrom('websub_subscriptions').where('id', 'in', ids).execute();
      return ids.length;
    });
  }

  /**
   * At a worker's start. One process owning the database means nobody else can hold a claim, so
   * claims of a killed run are released at once; where replicas share it, claims end with their lease.
   */
  async recoverClaims(now: number): Promise<void> {
    if (!this.adapter.releasesClaimsOnStart) return;
    for (const table of ['websub_deliveries', 'websub_verifications'] as const) {
      await this.db
        .updateTable(table)
        .set({ due_at: now, claimed_until: null, claim_token: null })
        .where('claim_token', 'is not', null)
        .execute();
    }
  }

  async gauges(now: number): Promise<HubGauges> {
    const [a, v, d] = await Promise.all([
      this.db
        .selectFrom('websub_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('websub_verifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('websub_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { activeSubscriptions: Number(a.n), pendingVerifications: Number(v.n), pendingDeliveries: Number(d.n) };
  }
}
