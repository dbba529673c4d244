import type { Store } from '../store/index.js';
import * as repo from './repo.js';

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

/** For `reviewcast subscriptions list`: every stored subscription, oldest first. */
export async function listSubscriptions(store: Store, now = Date.now()): Promise<SubscriptionInfo[]> {
  const rows = await store.db
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

/** Plain-text table for the CLI: one subscription per line, tab-separated (never the secret). */
export function formatSubscriptions(list: readonly SubscriptionInfo[]): string {
  if (list.length === 0) return 'no subscriptions';
  const head = ['id', 'topic', 'callback', 'signed', 'expires_at', 'failures', 'pending'];
  const rows = list.map((s) => [
    String(s.id),
    s.topic,
    s.callback,
    s.signed ? 'yes' : 'no',
    `${s.expires_at}${s.expired ? ' (expired)' : ''}`,
    String(s.consecutive_failures),
    s.pending_delivery ? 'yes' : 'no',
  ]);
  return [head, ...rows].map((r) => r.join('\t')).join('\n');
}

/**
 * For `reviewcast subscriptions remove <id|callback URL>`: removes one subscription by id, or every
 * subscription (all topics) of a callback URL. No verification and no notice to the subscriber: an
 * operator's decision. Returns how many were removed.
 */
export async function removeSubscription(store: Store, idOrCallback: number | string): Promise<number> {
  return store.transaction(async (trx) => {
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
    for (const r of rows) if (await repo.deleteSubscriptionById(trx, Number(r.id))) removed++;
    return removed;
  });
}
