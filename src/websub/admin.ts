import type { Store, SubscriptionInfo } from '../store/index.js';

export type { SubscriptionInfo };

/** For `reviewcast subscriptions list`: every stored subscription, oldest first. */
export const listSubscriptions = (store: Store, now = Date.now()): Promise<SubscriptionInfo[]> => store.hubSubscriptions.list(now);

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
export const removeSubscription = (store: Store, idOrCallback: number | string): Promise<number> =>
  store.hubSubscriptions.remove(idOrCallback);
