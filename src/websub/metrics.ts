/** Process-local counters of the hub; the gauges (subscriptions, queues) come from the store when read. */
export class HubCounters {
  requestsAccepted = 0;
  requestsRejected = 0;
  requestsRateLimited = 0;
  verificationsSucceeded = 0;
  verificationsFailed = 0;
  deliveriesSucceeded = 0;
  deliveriesFailed = 0;
  removedAfterFailures = 0;
  removedGone = 0;
  removedUnsubscribed = 0;
  removedExpired = 0;
}

export interface HubMetrics {
  activeSubscriptions: number;
  pendingVerifications: number;
  pendingDeliveries: number;
  counters: HubCounters;
}

/** Prometheus text exposition (version 0.0.4) of the hub's metrics. */
export function metricsText(m: HubMetrics): string {
  const c = m.counters;
  const lines: string[] = [];
  const gauge = (name: string, help: string, v: number) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${v}`);
  const counter = (name: string, help: string, values: Array<[string, number]>) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
    for (const [labels, v] of values) lines.push(`${name}${labels} ${v}`);
  };
  gauge('reviewcast_websub_active_subscriptions', 'Verified subscriptions whose lease has not expired.', m.activeSubscriptions);
  gauge('reviewcast_websub_pending_verifications', 'Requests waiting for verification of intent.', m.pendingVerifications);
  gauge('reviewcast_websub_pending_deliveries', 'Notifications queued or being retried.', m.pendingDeliveries);
  counter('reviewcast_websub_requests_total', 'Hub requests by outcome (this process).', [
    ['{outcome="accepted"}', c.requestsAccepted],
    ['{outcome="rejected"}', c.requestsRejected],
    ['{outcome="rate_limited"}', c.requestsRateLimited],
  ]);
  counter('reviewcast_websub_verifications_total', 'Verifications of intent by outcome (this process).', [
    ['{outcome="succeeded"}', c.verificationsSucceeded],
    ['{outcome="failed"}', c.verificationsFailed],
  ]);
  counter('reviewcast_websub_deliveries_total', 'Notification attempts by outcome (this process).', [
    ['{outcome="succeeded"}', c.deliveriesSucceeded],
    ['{outcome="failed"}', c.deliveriesFailed],
  ]);
  counter('reviewcast_websub_removed_subscriptions_total', 'Subscriptions removed, by reason (this process).', [
    ['{reason="failures"}', c.removedAfterFailures],
    ['{reason="gone"}', c.removedGone],
    ['{reason="unsubscribed"}', c.removedUnsubscribed],
    ['{reason="expired"}', c.removedExpired],
  ]);
  return `${lines.join('\n')}\n`;
}
