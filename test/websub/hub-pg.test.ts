import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Store } from '../../src/store/index.js';
import { HubConfigSchema, HubWorker, listSubscriptions } from '../../src/websub/index.js';
import { FAST, freshPgDatabase, goodSubscriber, makePki, PG_SKIP, Subscriber, sleep, startHub, waitFor } from '../helpers/index.js';

/** The same hub on PostgreSQL, with two workers ("replicas") claiming from one queue. */
describe('hub on PostgreSQL', { skip: PG_SKIP }, () => {
  const pki = makePki();

  test('two workers share the queue: every subscriber gets exactly one delivery per change', async () => {
    const db = await freshPgDatabase();
    const hub = await startHub(pki, { concurrency: 32 }, db.url);
    const store2 = await Store.open(db.url);
    const worker2 = new HubWorker({
      store: store2,
      catalog: hub.catalog,
      config: HubConfigSchema.parse({ caFile: pki.caFile, ...FAST, concurrency: 32 }),
      log: { info() {}, warn() {}, error() {}, debug() {} },
    });
    const sub = await Subscriber.start(pki);
    after(async () => {
      await hub.close();
      await worker2.stop();
      await store2.close();
      await sub.close();
      await db.drop();
    });
    await worker2.start();
    const n = 150;
    for (let i = 0; i < n; i++) assert.equal((await hub.subscribe(hub.catalog().links.feedJson, sub.url(`/s${i}`))).status, 202);
    await waitFor(() => listSubscriptions(hub.store).then((l) => l.length === n), 'all active', 15_000);
    await hub.publish();
    await waitFor(() => sub.posts().length >= n, 'all delivered', 15_000);
    await sleep(300);
    const paths = sub.posts().map((p) => p.url);
    assert.equal(paths.length, n, 'no duplicates');
    assert.equal(new Set(paths).size, n);
    assert.ok(worker2.counters.deliveriesSucceeded > 0 && hub.worker.counters.deliveriesSucceeded > 0, 'both workers took part');
  });

  test('failures, removal and denied work the same on PostgreSQL', async () => {
    const db = await freshPgDatabase();
    const hub = await startHub(pki, {}, db.url);
    const sub = await Subscriber.start(pki, (r, res) => (r.method === 'GET' ? goodSubscriber(r, res) : res.writeHead(500).end()));
    after(async () => {
      await hub.close();
      await sub.close();
      await db.drop();
    });
    // Back to back: the second request replaces the pending (or in-flight) first one. (Sent one after the
    // other: two concurrent HTTP requests have no defined order.)
    assert.equal((await hub.subscribe(hub.catalog().links.feedAtom, sub.url(), { 'hub.lease_seconds': '900' })).status, 202);
    assert.equal((await hub.subscribe(hub.catalog().links.feedAtom, sub.url(), { 'hub.secret': 'pg' })).status, 202);
    await waitFor(() => listSubscriptions(hub.store).then((l) => l.length === 1 && l[0].signed), 'active with the newer request');
    await hub.publish();
    await waitFor(() => sub.gets().some((g) => g.query.get('hub.mode') === 'denied'), 'denied');
    assert.equal(sub.posts().length, 3);
    assert.deepEqual(await listSubscriptions(hub.store), []);
  });
});
