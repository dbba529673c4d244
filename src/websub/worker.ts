import { randomBytes } from 'node:crypto';
import type { Catalog } from '../catalog/index.js';
import { linkHeader } from '../domain/index.js';
import type { ClaimedDelivery, Delivery, Store, Verification } from '../store/index.js';
import { type HubConfig, retryDelayMs } from './config.js';
import { HubCounters, type HubMetrics, metricsText } from './metrics.js';
import { OutboundClient } from './outbound.js';
import { redactUrl } from './redact.js';
import { withQuery } from './request.js';
import { hubSignature } from './signature.js';
import { topicsOf } from './topics.js';

/** The subset of a pino/Fastify logger the hub uses. */
export interface HubLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface HubDeps {
  store: Store;
  /** The catalog currently served; read at send time so a delivery carries the newest bytes. */
  catalog: () => Catalog;
  config: HubConfig;
  log: HubLog;
}

const PURGE_INTERVAL_MS = 60_000;
const CLAIM_BATCH = 200;

/**
 * Runs the hub's background work: verifications of intent, deliveries and their retries, lease expiry.
 * All work is rows in the store (see the store's hub repositories), so any number of workers (replicas) can run, and a
 * killed one loses nothing: its claimed rows become due again when their claim lease ends.
 */
export class HubWorker {
  readonly counters = new HubCounters();
  private readonly client: OutboundClient;
  private readonly inflight = new Set<Promise<void>>();
  private running = false;
  private pumping = false;
  private again = false;
  private timers: NodeJS.Timeout[] = [];
  private lastLoggedMetrics = '';
  private stopping: Promise<void> | null = null;

  /** Successful jobs are recorded in batches: one transaction per batch instead of one per delivery. */
  private readonly finished: Batcher<{ d: Delivery; etag: string | null }>;

  constructor(private readonly deps: HubDeps) {
    this.client = new OutboundClient(deps.config);
    this.finished = new Batcher((items) => deps.store.hubDeliveries.finish(items, Date.now()));
  }

  async start(): Promise<void> {
    if (this.running || this.stopping) return;
    this.running = true;
    await this.deps.store.hubSubscriptions.recoverClaims(Date.now());
    const { pollIntervalMs, metricsLogIntervalMs } = this.deps.config;
    this.timers.push(setInterval(() => this.kick(), pollIntervalMs));
    this.timers.push(setInterval(() => void this.purge(), PURGE_INTERVAL_MS));
    if (metricsLogIntervalMs > 0) this.timers.push(setInterval(() => void this.logMetrics(), metricsLogIntervalMs));
    for (const t of this.timers) t.unref();
    await this.purge();
    this.kick();
  }

  /** Stops claiming new work and waits for requests in flight (each bounded by the request timeout). Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.running = false;
      for (const t of this.timers) clearInterval(t);
      this.timers = [];
      while (this.pumping || this.inflight.size > 0) await Promise.race([...this.inflight, delay(20)]);
      await this.client.close();
    })();
    return this.stopping;
  }

  /**
   * Call after every catalog swap (and once at start with the initial catalog): queues a delivery for
   * each active subscriber of every topic whose bytes changed since the last announcement.
   */
  async onRevision(catalog: Catalog): Promise<void> {
    const now = Date.now();
    for (const t of topicsOf(catalog)) {
      const queued = await this.deps.store.hubDeliveries.announce(t.url, t.representation.etag, catalog.revision, now);
      if (queued !== null)
        this.deps.log.info({ topic: t.url, revision: catalog.revision, subscribers: queued }, 'websub: topic changed, deliveries queued');
    }
    this.kick();
  }

  /** Look for due work now (new request, new revision) instead of at the next poll. */
  kick(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  async metrics(): Promise<HubMetrics> {
    return { ...(await this.deps.store.hubSubscriptions.gauges(Date.now())), counters: this.counters };
  }

  async metricsText(): Promise<string> {
    return metricsText(await this.metrics());
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.again = false;
        while (this.running) {
          const room = this.deps.config.concurrency - this.inflight.size;
          if (room <= 0) break;
          const now = Date.now();
          const lease = this.deps.config.claimLeaseMs;
          const verifications = await this.deps.store.hubVerifications.claim(Math.min(room, CLAIM_BATCH), now, lease);
          for (const v of verifications) this.track(this.verify(v));
          const left = room - verifications.length;
          const deliveries = left > 0 ? await this.deps.store.hubDeliveries.claim(Math.min(left, CLAIM_BATCH), now, lease) : [];
          for (const d of deliveries) this.track(this.deliver(d));
          if (verifications.length + deliveries.length === 0) break;
        }
      } while (this.again && this.running);
    } catch (err) {
      this.deps.log.error({ err }, 'websub: claiming jobs failed');
    } finally {
      this.pumping = false;
    }
  }

  private track(p: Promise<void>): void {
    const t = p
      .catch((err) => this.deps.log.error({ err }, 'websub: job failed unexpectedly'))
      .finally(() => {
        this.inflight.delete(t);
        // A slot came free: fill it (cheap when nothing is due).
        this.kick();
      });
    this.inflight.add(t);
  }

  private async verify(v: Verification): Promise<void> {
    const log = { topic: v.topic, callback: redactUrl(v.callback), mode: v.mode };
    // 256 bits from the CSPRNG, new for every attempt and never stored: single use by construction.
    const challenge = randomBytes(32).toString('base64url');
    const params: Record<string, string> = { 'hub.mode': v.mode, 'hub.topic': v.topic, 'hub.challenge': challenge };
    if (v.mode === 'subscribe') params['hub.lease_seconds'] = String(v.lease_seconds);
    const res = await this.client.send('GET', withQuery(v.callback, params));
    let failure: string | null = null;
    if (!res.ok) failure = res.error;
    else if (res.value.status < 200 || res.value.status > 299) failure = `status ${res.value.status}`;
    else if (!res.value.body.equals(Buffer.from(challenge))) failure = 'response body is not the challenge';
    const outcome = await this.deps.store.hubVerifications.complete(v, failure === null, Date.now());
    if (outcome !== 'applied') return;
    if (failure) {
      this.counters.verificationsFailed++;
      this.deps.log.info({ ...log, reason: failure }, 'websub: verification of intent failed; state unchanged');
      return;
    }
    this.counters.verificationsSucceeded++;
    if (v.mode === 'unsubscribe') this.counters.removedUnsubscribed++;
    this.deps.log.info(
      { ...log, lease_seconds: v.lease_seconds ?? undefined },
      v.mode === 'subscribe' ? 'websub: subscription active' : 'websub: unsubscribed',
    );
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const { store, config } = this.deps;
    const now = Date.now();
    const catalog = this.deps.catalog();
    const topic = topicsOf(catalog).find((t) => t.url === d.topic);
    // Expired leases get nothing (the purge removes the subscription itself).
    if (d.expires_at <= now || !topic) return this.finished.add({ d, etag: null });
    if (catalog.revision < d.revision) {
      // Another replica announced a revision this one has not loaded yet: let it (or us, shortly) send it.
      await store.hubDeliveries.postpone(d, now + config.pollIntervalMs);
      return;
    }
    const rep = topic.representation;
    if (rep.etag === d.last_delivered_etag) return this.finished.add({ d, etag: null });
    const headers: Record<string, string> = {
      'content-type': rep.contentType,
      link: linkHeader(catalog.links, topic.url),
    };
    // The body as it is held (a dataset is in parts): signed and sent without joining it.
    if (d.secret) headers['x-hub-signature'] = hubSignature(d.secret, rep.chunks);
    const res = await this.client.send('POST', d.callback, headers, rep.chunks);
    const log = { subscription: d.subscription_id, topic: d.topic, callback: redactUrl(d.callback), revision: catalog.revision };
    if (res.ok && res.value.status >= 200 && res.value.status <= 299) {
      this.counters.deliveriesSucceeded++;
      this.deps.log.debug({ ...log, status: res.value.status }, 'websub: delivered');
      return this.finished.add({ d, etag: rep.etag });
    }
    this.counters.deliveriesFailed++;
    if (res.ok && res.value.status === 410) {
      await store.hubSubscriptions.removeById(d.subscription_id);
      this.counters.removedGone++;
      this.deps.log.info(log, 'websub: callback answered 410 Gone; subscription removed');
      return;
    }
    const reason = res.ok ? `status ${res.value.status}` : res.error;
    const retryAt = Date.now() + retryDelayMs(d.attempts + 1, config);
    const { failures, removed } = await store.hubDeliveries.fail(d, retryAt, config.maxConsecutiveFailures);
    if (!removed) {
      this.deps.log.info({ ...log, reason, failures, retry_at: new Date(retryAt).toISOString() }, 'websub: delivery failed; will retry');
      return;
    }
    this.counters.removedAfterFailures++;
    this.deps.log.warn({ ...log, reason, failures }, 'websub: subscription removed after consecutive delivery failures');
    // Best effort, once: tell the subscriber why it stops receiving (WebSub "denied" notification).
    const denied = withQuery(d.callback, {
      'hub.mode': 'denied',
      'hub.topic': d.topic,
      'hub.reason': `${failures} consecutive delivery failures (last: ${reason}); subscribe again to resume`,
    });
    await this.client.send('GET', denied);
  }

  private async purge(): Promise<void> {
    try {
      const n = await this.deps.store.hubSubscriptions.purgeExpired(Date.now());
      if (n > 0) {
        this.counters.removedExpired += n;
        this.deps.log.info({ expired: n }, 'websub: expired subscriptions removed');
      }
    } catch (err) {
      this.deps.log.error({ err }, 'websub: purging expired subscriptions failed');
    }
  }

  private async logMetrics(): Promise<void> {
    try {
      const m = await this.metrics();
      const line = JSON.stringify(m);
      // Only when something changed, so an idle hub does not fill the log.
      if (line === this.lastLoggedMetrics) return;
      this.lastLoggedMetrics = line;
      this.deps.log.info({ websub: { ...m, counters: { ...m.counters } } }, 'websub: metrics');
    } catch (err) {
      this.deps.log.error({ err }, 'websub: reading metrics failed');
    }
  }
}

/**
 * Collects items and hands them to `flush` together: when `max` are waiting, or `waitMs` after the
 * first. `add` resolves once its item has been flushed, so a job holds its slot until it is recorded.
 */
class Batcher<T> {
  private items: T[] = [];
  private waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly max = 256,
    private readonly waitMs = 10,
  ) {}

  add(item: T): Promise<void> {
    this.items.push(item);
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (this.items.length >= this.max) this.run();
    else this.timer ??= setTimeout(() => this.run(), this.waitMs);
    return p;
  }

  private run(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    this.flush(items).then(
      () => waiters.forEach((w) => w.resolve()),
      (err) => waiters.forEach((w) => w.reject(err)),
    );
  }
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
