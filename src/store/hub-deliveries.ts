import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, DialectAdapter, Queryable } from './dialect.js';
import { deleteSubscriptionById, iso } from './hub-subscriptions.js';
import type { WebsubDeliveryTable, WebsubSubscriptionTable } from './schema.js';

export type Delivery = WebsubDeliveryTable & { claim_token: string };
/** A claimed job with what sending it needs from its subscription (read in the same query). */
export type ClaimedDelivery = Delivery & Pick<WebsubSubscriptionTable, 'callback' | 'secret' | 'expires_at' | 'last_delivered_etag'>;

const chunks = <T>(xs: readonly T[], size = 500): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}

async function release(trx: Queryable, d: Delivery, dueAt: number, failed: boolean): Promise<void> {
  await trx
    .updateTable('websub_deliveries')
    .set((eb) => ({
      due_at: dueAt,
      claimed_until: null,
      claim_token: null,
      ...(failed ? { attempts: eb('attempts', '+', 1) } : {}),
    }))
    .where('subscription_id', '=', d.subscription_id)
    .where('claim_token', '=', d.claim_token)
    .execute();
}

/**
 * "Send the current content of this topic to this subscription" jobs, at most one per subscription,
 * claimed like verifications (a lease and a token), plus the last announced ETag per topic.
 */
export class HubDeliveryRepository {
  constructor(
    private readonly db: Db,
    private readonly adapter: DialectAdapter,
  ) {}

  /**
   * Records that `topic` now has `etag` and, if that differs from the last announced one, queues a
   * delivery for every active subscriber in the same transaction: a crash either loses both (and the
   * next start announces again) or neither. A subscriber's existing job just gets the new ETag; it keeps
   * its claim or retry schedule, and the content is read at send time, so the newer revision replaces
   * the older one naturally. Returns the number of jobs queued or updated (null if nothing changed).
   */
  async announce(topic: string, etag: string, revision: number, now: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      // Compare-and-set on the topic row first: when several replicas announce the same revision, the
      // row lock makes the others wait and then see the ETag already recorded, so exactly one queues jobs.
      const won = await trx
        .insertInto('websub_topics')
        .values({ topic, etag, revision, announced_at: iso(now) })
        .onConflict((oc) =>
          oc
            .column('topic')
            .doUpdateSet({ etag, revision, announced_at: iso(now) })
            // Only forward: a replica still on an older revision never re-announces stale bytes.
            .where((eb) => eb.and([eb('websub_topics.etag', '!=', etag), eb('websub_topics.revision', '<', revision)])),
        )
        .returning('topic')
        .executeTakeFirst();
      if (!won) return null;
      const queued = await sql`
      insert into websub_deliveries (subscription_id, topic, etag, revision, attempts, due_at, created_at)
      select id, topic, cast(${etag} as text), cast(${revision} as integer), 0, cast(${now} as bigint), cast(${iso(now)} as text)
      from websub_subscriptions where topic = ${topic} and expires_at > ${now}
      on conflict (subscription_id) do update set etag = excluded.etag, revision = excluded.revision`.execute(trx);
      return Number(queued.numAffectedRows ?? 0);
    });
  }

  async claim(limit: number, now: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await this.adapter
        .lockForClaim(
          trx
            .selectFrom('websub_deliveries as d')
            .innerJoin('websub_subscriptions as s', 's.id', 'd.subscription_id')
            .selectAll('d')
            .select(['s.callback', 's.secret', 's.expires_at', 's.last_delivered_etag'])
            .where('d.due_at', '<=', now)
            .orderBy('d.due_at')
            .limit(limit),
          'd',
        )
        .execute();
      if (rows.length === 0) return [];
      const token = randomUUID();
      const until = now + leaseMs;
      for (const ids of chunks(rows.map((r) => Number(r.subscription_id)))) {
        await trx
          .updateTable('websub_deliveries')
          .set({ due_at: until, claimed_until: until, claim_token: token })
          .where('subscription_id', 'in', ids)
          .execute();
      }
      return rows.map((r) => ({ ...r, subscription_id: Number(r.subscription_id), expires_at: Number(r.expires_at), claim_token: token }));
    });
  }

  /**
   * Finishes jobs that need no retry, many per transaction (a fan-out finishes thousands). `etag` is
   * what was delivered, or null when nothing had to be sent. A job that a newer revision re-queued while
   * it was in flight (its ETag changed) is handed back instead of deleted, so the newer content goes out too.
   */
  async finish(done: ReadonlyArray<{ d: Delivery; etag: string | null }>, now: number): Promise<void> {
    if (done.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const [etag, items] of groupBy(
        done.filter((x) => x.etag !== null),
        (x) => x.etag!,
      )) {
        for (const ids of chunks(items.map((x) => x.d.subscription_id))) {
          await trx.updateTable('websub_subscriptions').set({ failures: 0, last_delivered_etag: etag }).where('id', 'in', ids).execute();
        }
      }
      for (const items of groupBy(done, (x) => `${x.d.claim_token} ${x.d.etag}`).values()) {
        const { claim_token, etag } = items[0].d;
        for (const ids of chunks(items.map((x) => x.d.subscription_id))) {
          await trx
            .deleteFrom('websub_deliveries')
            .where('claim_token', '=', claim_token)
            .where('etag', '=', etag)
            .where('subscription_id', 'in', ids)
            .execute();
          // Whatever still carries our claim was re-queued meanwhile: hand it back, due now.
          await trx
            .updateTable('websub_deliveries')
            .set({ due_at: now, claimed_until: null, claim_token: null })
            .where('claim_token', '=', claim_token)
            .where('subscription_id', 'in', ids)
            .execute();
        }
      }
    });
  }

  /**
   * Counts a failed attempt. Returns the subscription's consecutive failures; at `max` the subscription
   * (and its job) is deleted, otherwise the job is rescheduled at `retryAt`.
   */
  async fail(d: Delivery, retryAt: number, max: number): Promise<{ failures: number; removed: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('websub_subscriptions')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('id', '=', d.subscription_id)
        .returning('failures')
        .executeTakeFirst();
      const failures = row ? Number(row.failures) : max;
      if (failures >= max) {
        await deleteSubscriptionById(trx, d.subscription_id);
        return { failures, removed: true };
      }
      await release(trx, d, retryAt, true);
      return { failures, removed: false };
    });
  }

  /** Hands a job back untouched, due again at `dueAt` (this worker cannot serve it yet). */
  async postpone(d: Delivery, dueAt: number): Promise<void> {
    await release(this.db, d, dueAt, false);
  }
}
