import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Store, Tx, WebsubDeliveryTable, WebsubSubscriptionTable, WebsubVerificationTable } from '../store/index.js';
import type { HubRequest } from './request.js';

/**
 * Every read and write of the hub's durable state. Jobs (verifications, deliveries) are rows; a worker
 * claims a batch by moving its `due_at` past a lease and stamping a claim token, so a killed worker's
 * rows simply become due again when the lease ends. PostgreSQL claims with FOR UPDATE SKIP LOCKED so
 * replicas never take the same row; SQLite is one process, where the transaction alone suffices.
 */

export type Verification = Omit<WebsubVerificationTable, 'id'> & { id: number; claim_token: string };
export type Delivery = WebsubDeliveryTable & { claim_token: string };

const iso = (ms: number) => new Date(ms).toISOString();

export async function countPendingVerifications(db: Tx): Promise<number> {
  const row = await db
    .selectFrom('websub_verifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function hasPendingVerification(db: Tx, topic: string, callback: string): Promise<boolean> {
  const row = await db
    .selectFrom('websub_verifications')
    .select('id')
    .where('topic', '=', topic)
    .where('callback', '=', callback)
    .executeTakeFirst();
  return row !== undefined;
}

/** Queues a request for verification; a newer request for the same (topic, callback) replaces the older one. */
export async function queueVerification(db: Tx, r: HubRequest, now: number): Promise<void> {
  await db
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

export async function claimVerifications(store: Store, limit: number, now: number, leaseMs: number): Promise<Verification[]> {
  return store.transaction(async (trx) => {
    const rows = await trx
      .selectFrom('websub_verifications')
      .selectAll()
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .limit(limit)
      .$if(store.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
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
 * Applies a verified (or failed) request. Returns false when the row was replaced by a newer request
 * meanwhile: then nothing is applied and the row is handed back so the newer request gets verified.
 */
export async function completeVerification(
  store: Store,
  v: Verification,
  verified: boolean,
  now: number,
): Promise<'applied' | 'superseded' | 'lost'> {
  return store.transaction(async (trx) => {
    const current = await trx
      .selectFrom('websub_verifications')
      .select(['seq', 'claim_token'])
      .where('id', '=', v.id)
      .$if(store.dialect === 'postgres', (q) => q.forUpdate())
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
    if (v.mode === 'subscribe') await activate(trx, v, now);
    else await deleteSubscriptionWhere(trx, v.topic, v.callback);
    return 'applied';
  });
}

async function activate(trx: Tx, v: Verification, now: number): Promise<void> {
  const lease = v.lease_seconds ?? 0;
  await trx
    .insertInto('websub_subscriptions')
    .values({
      topic: v.topic,
      callback: v.callback,
      secret: v.secret,
      lease_seconds: lease,
      expires_at: now + lease * 1000,
      failures: 0,
      last_delivered_etag: null,
      created_at: iso(now),
      updated_at: iso(now),
    })
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

async function deleteSubscriptionWhere(trx: Tx, topic: string, callback: string): Promise<void> {
  const sub = await trx
    .selectFrom('websub_subscriptions')
    .select('id')
    .where('topic', '=', topic)
    .where('callback', '=', callback)
    .executeTakeFirst();
  if (sub) await deleteSubscriptionById(trx, Number(sub.id));
}

export async function deleteSubscriptionById(trx: Tx, id: number): Promise<boolean> {
  await trx.deleteFrom('websub_deliveries').where('subscription_id', '=', id).execute();
  const r = await trx.deleteFrom('websub_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Records that `topic` now has `etag` and, if that differs from the last announced one, queues a
 * delivery for every active subscriber in the same transaction: a crash either loses both (and the
 * next start announces again) or neither. A subscriber's existing job just gets the new ETag; it keeps
 * its claim or retry schedule, and the content is read at send time, so the newer revision replaces
 * the older one naturally. Returns the number of jobs queued or updated (0 if nothing changed).
 */
export async function announce(store: Store, topic: string, etag: string, revision: number, now: number): Promise<number | null> {
  return store.transaction(async (trx) => {
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

/** A claimed job with what sending it needs from its subscription (read in the same query). */
export type ClaimedDelivery = Delivery & Pick<WebsubSubscriptionTable, 'callback' | 'secret' | 'expires_at' | 'last_delivered_etag'>;

export async function claimDeliveries(store: Store, limit: number, now: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return store.transaction(async (trx) => {
    const rows = await trx
      .selectFrom('websub_deliveries as d')
      .innerJoin('websub_subscriptions as s', 's.id', 'd.subscription_id')
      .selectAll('d')
      .select(['s.callback', 's.secret', 's.expires_at', 's.last_delivered_etag'])
      .where('d.due_at', '<=', now)
      .orderBy('d.due_at')
      .limit(limit)
      .$if(store.dialect === 'postgres', (q) => q.forUpdate('d').skipLocked())
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
export async function finishDeliveries(
  store: Store,
  done: ReadonlyArray<{ d: Delivery; etag: string | null }>,
  now: number,
): Promise<void> {
  if (done.length === 0) return;
  await store.transaction(async (trx) => {
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
export async function failDelivery(
  store: Store,
  d: Delivery,
  retryAt: number,
  max: number,
): Promise<{ failures: number; removed: boolean }> {
  return store.transaction(async (trx) => {
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

/** Hands a job back untouched, due again at `dueAt` (this worker cannot serve it yet). */
export async function postpone(db: Tx, d: Delivery, dueAt: number): Promise<void> {
  await release(db, d, dueAt, false);
}

async function release(trx: Tx, d: Delivery, dueAt: number, failed: boolean): Promise<void> {
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

/** SQLite means a single process: on start, nobody else can hold a claim, so claims of a killed run are released at once. */
export async function releaseAllClaims(db: Tx, now: number): Promise<void> {
  await db
    .updateTable('websub_deliveries')
    .set({ due_at: now, claimed_until: null, claim_token: null })
    .where('claim_token', 'is not', null)
    .execute();
  await db
    .updateTable('websub_verifications')
    .set({ due_at: now, claimed_until: null, claim_token: null })
    .where('claim_token', 'is not', null)
    .execute();
}

/** Deletes subscriptions whose lease ran out (and their queued jobs). Returns how many. */
export async function purgeExpired(store: Store, now: number): Promise<number> {
  return store.transaction(async (trx) => {
    const expired = await trx.selectFrom('websub_subscriptions').select('id').where('expires_at', '<=', now).execute();
    if (expired.length === 0) return 0;
    const ids = expired.map((r) => Number(r.id));
    await trx.deleteFrom('websub_deliveries').where('subscription_id', 'in', ids).execute();
    await trx.deleteFrom('websub_subscriptions').where('id', 'in', ids).execute();
    return ids.length;
  });
}

export async function gauges(
  db: Tx,
  now: number,
): Promise<{ activeSubscriptions: number; pendingVerifications: number; pendingDeliveries: number }> {
  const [a, v, d] = await Promise.all([
    db
      .selectFrom('websub_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('websub_verifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('websub_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { activeSubscriptions: Number(a.n), pendingVerifications: Number(v.n), pendingDeliveries: Number(d.n) };
}
