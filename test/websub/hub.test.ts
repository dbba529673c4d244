import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { after, describe, test } from 'node:test';
import { formatSubscriptions, listSubscriptions, removeSubscription } from '../../src/websub/index.js';
import { goodSubscriber, hmac, makePki, Subscriber, sleep, startHub, type TestHub, type TestPki, waitFor } from '../helpers/index.js';

const pki: TestPki = makePki();

/** A hub and subscribers that are torn down after the test. */
async function setup(config = {}) {
  const hub = await startHub(pki, config);
  const subs: Subscriber[] = [];
  after(async () => {
    await hub.close();
    for (const s of subs) await s.close();
  });
  const subscriber = async (handler = goodSubscriber) => {
    const s = await Subscriber.start(pki, handler);
    subs.push(s);
    return s;
  };
  const topics = () => hub.catalog().links;
  return { hub, subscriber, topics };
}

const active = async (hub: TestHub) => (await listSubscriptions(hub.store)).filter((s) => !s.expired);

describe('subscribe and verification of intent', () => {
  test('a valid request gets 202, then a GET challenge; echoing it activates the subscription', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    const res = await hub.subscribe(topics().feedAtom, sub.url('/cb'), { 'hub.lease_seconds': '3600' });
    assert.equal(res.status, 202);
    assert.match(res.text, /accepted/);
    const [get] = await waitFor(() => sub.gets('/cb').length > 0 && sub.gets('/cb'), 'verification GET');
    assert.equal(get.query.get('hub.mode'), 'subscribe');
    assert.equal(get.query.get('hub.topic'), topics().feedAtom);
    assert.equal(get.query.get('hub.lease_seconds'), '3600');
    const challenge = get.query.get('hub.challenge')!;
    assert.ok(Buffer.from(challenge, 'base64url').length >= 16, 'challenge carries at least 128 bits');
    const [s] = await waitFor(() => active(hub).then((a) => a.length === 1 && a), 'activation');
    assert.equal(s.topic, topics().feedAtom);
    assert.equal(s.callback, sub.url('/cb'));
    assert.equal(s.lease_seconds, 3600);
  });

  test('challenges are unique per verification', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    await hub.subscribe(topics().feedAtom, sub.url('/a'));
    await hub.subscribe(topics().feedJson, sub.url('/a'));
    await waitFor(() => sub.gets().length === 2, 'two verifications');
    const [a, b] = sub.gets().map((g) => g.query.get('hub.challenge'));
    assert.notEqual(a, b);
  });

  test('a wrong body (even with 200) does not activate', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber((r, res) => res.writeHead(200).end(`${r.query.get('hub.challenge')}\n`));
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => sub.gets().length === 1, 'verification');
    await sleep(200);
    assert.deepEqual(await active(hub), []);
    assert.equal((await hub.worker.metrics()).pendingVerifications, 0);
  });

  for (const status of [404, 500, 302]) {
    test(`a ${status} answer does not activate${status === 302 ? ' and the redirect is not followed' : ''}`, async () => {
      const { hub, subscriber, topics } = await setup();
      const sub = await subscriber((r, res) => {
        if (r.url.startsWith('/elsewhere')) return goodSubscriber(r, res);
        res
          .writeHead(status, status === 302 ? { location: `/elsewhere?${r.url.split('?')[1]}` } : {})
          .end(r.query.get('hub.challenge') ?? '');
      });
      await hub.subscribe(topics().feedAtom, sub.url());
      await waitFor(() => sub.gets().length === 1, 'verification');
      await sleep(200);
      assert.deepEqual(await active(hub), []);
      assert.equal(sub.gets('/elsewhere').length, 0);
    });
  }

  test('a callback that does not answer in time does not activate', async () => {
    const { hub, subscriber, topics } = await setup({ requestTimeoutMs: 500 });
    const sub = await subscriber(() => {
      /* never answers */
    });
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => sub.gets().length === 1, 'verification');
    // The hub's own timeout ends the request: the subscriber never answers, so nothing else could.
    await waitFor(() => hub.logs.text.includes('timed out'), 'timeout logged', 30_000);
    assert.deepEqual(await active(hub), []);
  });

  test('a plain-HTTP callback is rejected with 400 and never fetched', async () => {
    const { hub, topics } = await setup();
    let hits = 0;
    const plain = createHttpServer((_req, res) => {
      hits++;
      res.end();
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    after(() => plain.close());
    const res = await hub.subscribe(topics().feedAtom, `http://127.0.0.1:${(plain.address() as { port: number }).port}/cb`);
    assert.equal(res.status, 400);
    assert.match(res.text, /https/);
    await sleep(200);
    assert.equal(hits, 0);
  });

  test('invalid requests get a 4xx with a plain-text reason', async () => {
    const { hub, topics } = await setup();
    const cb = 'https://127.0.0.1:1/cb';
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ 'hub.topic': topics().feedAtom, 'hub.callback': cb }, /hub\.mode/],
      [{ 'hub.mode': 'publish', 'hub.topic': topics().feedAtom, 'hub.callback': cb }, /not supported/],
      [{ 'hub.mode': 'subscribe', 'hub.callback': cb }, /hub\.topic/],
      [{ 'hub.mode': 'subscribe', 'hub.topic': 'https://elsewhere.example/feed', 'hub.callback': cb }, /one of/],
      [{ 'hub.mode': 'subscribe', 'hub.topic': topics().feedAtom }, /hub\.callback/],
      [{ 'hub.mode': 'subscribe', 'hub.topic': topics().feedAtom, 'hub.callback': 'not a url' }, /absolute URL/],
      [{ 'hub.mode': 'subscribe', 'hub.topic': topics().feedAtom, 'hub.callback': 'https://u:p@127.0.0.1:1/cb' }, /user name/],
      [{ 'hub.mode': 'subscribe', 'hub.topic': topics().feedAtom, 'hub.callback': `https://127.0.0.1:1/${'x'.repeat(2048)}` }, /2048/],
      [{ 'hub.mode': 'subscribe', 'hub.topic': topics().feedAtom, 'hub.callback': cb, 'hub.secret': 's'.repeat(200) }, /200 bytes/],
      [{ 'hub.mode': 'subscribe', 'hub.topic': topics().feedAtom, 'hub.callback': cb, 'hub.lease_seconds': '-5' }, /lease_seconds/],
    ];
    for (const [fields, reason] of cases) {
      const res = await hub.post(fields);
      assert.equal(res.status, 400, JSON.stringify(fields).slice(0, 120));
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.match(res.text, reason);
    }
    const json = await hub.post('{"hub.mode":"subscribe"}', { 'content-type': 'application/json' });
    assert.equal(json.status, 415);
    assert.match(json.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal((await hub.worker.metrics()).pendingVerifications, 0);
  });

  test('unknown parameters are ignored', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    const res = await hub.subscribe(topics().feedJson, sub.url(), { 'hub.extra': '1', foo: 'bar', 'hub.verify': 'sync' });
    assert.equal(res.status, 202);
    await waitFor(() => active(hub).then((a) => a.length === 1), 'activation');
  });

  test("the callback's own query string is kept, ours appended", async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    const cb = sub.url('/cb?token=a%20b&x=1&x=2');
    await hub.subscribe(topics().feedAtom, cb);
    const [get] = await waitFor(() => sub.gets().length === 1 && sub.gets(), 'verification');
    assert.ok(get.url.startsWith('/cb?token=a%20b&x=1&x=2&hub.mode=subscribe&'), get.url);
    await waitFor(() => active(hub).then((a) => a.length === 1), 'activation');
    await hub.publish();
    const [post] = await waitFor(() => sub.posts().length === 1 && sub.posts(), 'delivery');
    assert.equal(post.url, '/cb?token=a%20b&x=1&x=2');
  });

  test('leases are clamped to the configured bounds and the default applies when none is asked', async () => {
    const { hub, subscriber, topics } = await setup({ leaseMinSeconds: 60, leaseMaxSeconds: 86_400, leaseDefaultSeconds: 3_600 });
    const sub = await subscriber();
    await hub.subscribe(topics().feedAtom, sub.url('/none'));
    await hub.subscribe(topics().feedAtom, sub.url('/small'), { 'hub.lease_seconds': '1' });
    await hub.subscribe(topics().feedAtom, sub.url('/big'), { 'hub.lease_seconds': '999999999' });
    await waitFor(() => sub.gets().length === 3, 'three verifications');
    const lease = (p: string) => sub.gets(p)[0].query.get('hub.lease_seconds');
    assert.equal(lease('/none'), '3600');
    assert.equal(lease('/small'), '60');
    assert.equal(lease('/big'), '86400');
  });

  test('the default lease is 10 days', async () => {
    const { hub, subscriber, topics } = await setup({ leaseDefaultSeconds: undefined });
    const sub = await subscriber();
    await hub.subscribe(topics().feedAtom, sub.url());
    const [get] = await waitFor(() => sub.gets().length === 1 && sub.gets(), 'verification');
    assert.equal(get.query.get('hub.lease_seconds'), String(10 * 86_400));
  });
});

describe('delivery', () => {
  test('each topic is delivered with its own Content-Type and a Link header (hub, self)', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    const t = topics();
    for (const [name, topic] of [
      ['atom', t.feedAtom],
      ['json', t.feedJson],
      ['reviews', t.reviewsJson],
    ])
      await hub.subscribe(topic, sub.url(`/${name}`));
    await waitFor(() => active(hub).then((a) => a.length === 3), 'three active');
    const cat = await hub.publish();
    await waitFor(() => sub.posts().length === 3, 'three deliveries');
    const expect = {
      '/atom': [t.feedAtom, 'application/atom+xml', cat.representations.feedAtom.body],
      '/json': [t.feedJson, 'application/feed+json', cat.representations.feedJson.body],
      '/reviews': [t.reviewsJson, 'application/json', cat.representations.reviews.body],
    } as const;
    for (const [path, [topic, type, body]] of Object.entries(expect)) {
      const [p] = sub.posts(path);
      assert.equal(String(p.headers['content-type']).split(';')[0], type, path);
      assert.equal(p.headers.link, `<${t.hub}>; rel="hub", <${topic}>; rel="self"`);
      assert.deepEqual(p.body, body);
      assert.equal(p.headers['x-hub-signature'], undefined, 'no secret, no signature');
    }
  });

  test('X-Hub-Signature is sha256 HMAC of the exact body, only when a secret was given', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    const secret = 'correct horse battery staple';
    await hub.subscribe(topics().feedJson, sub.url('/signed'), { 'hub.secret': secret });
    await hub.subscribe(topics().feedJson, sub.url('/plain'));
    await waitFor(() => active(hub).then((a) => a.length === 2), 'two active');
    await hub.publish();
    await waitFor(() => sub.posts().length === 2, 'two deliveries');
    const [signed] = sub.posts('/signed');
    assert.equal(signed.headers['x-hub-signature'], hmac(secret, signed.body));
    const [plain] = sub.posts('/plain');
    assert.equal(plain.headers['x-hub-signature'], undefined);
    assert.equal(hub.logs.text.includes(secret), false, 'the secret never appears in the logs');
  });

  test('a dataset held in parts is delivered and signed as its exact bytes, with their total as its length', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    const secret = 'parts are not joined';
    await hub.subscribe(topics().reviewsJson, sub.url('/signed'), { 'hub.secret': secret });
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    const cat = await hub.publish({ padBytes: 300_000, inParts: 5 });
    assert.equal(cat.representations.reviews.chunks.length, 5);
    await waitFor(() => sub.posts().length === 1, 'one delivery');
    const [p] = sub.posts('/signed');
    assert.deepEqual(p.body, Buffer.concat(cat.representations.reviews.chunks as Buffer[]));
    assert.equal(p.headers['content-length'], String(cat.representations.reviews.length));
    assert.equal(p.headers['x-hub-signature'], hmac(secret, p.body));
  });

  test('re-subscribing renews the lease, replaces or drops the secret, and yields one delivery per change', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    await hub.subscribe(topics().feedAtom, sub.url(), { 'hub.secret': 'first', 'hub.lease_seconds': '600' });
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    const [before] = await active(hub);
    await hub.subscribe(topics().feedAtom, sub.url(), { 'hub.secret': 'second', 'hub.lease_seconds': '7200' });
    await waitFor(() => sub.gets().length === 2, 'second verification');
    await waitFor(() => active(hub).then((a) => a[0]?.lease_seconds === 7200), 'renewed');
    const [renewed] = await active(hub);
    assert.equal(renewed.id, before.id);
    assert.ok(renewed.expires_at > before.expires_at);
    await hub.publish();
    await waitFor(() => sub.posts().length === 1, 'delivery');
    assert.equal(sub.posts()[0].headers['x-hub-signature'], hmac('second', sub.posts()[0].body));
    // Re-subscribe without a secret: the secret is dropped.
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => active(hub).then((a) => a[0]?.signed === false), 'secret dropped');
    await hub.publish();
    await waitFor(() => sub.posts().length === 2, 'second delivery');
    assert.equal(sub.posts()[1].headers['x-hub-signature'], undefined);
    await sleep(200);
    assert.equal(sub.posts().length, 2, 'exactly one delivery per change');
  });

  test('a revision that does not change a topic sends nothing; a newer revision replaces an undelivered one', async () => {
    const { hub, subscriber, topics } = await setup({ retryBaseMs: 300 });
    let fail = true;
    const sub = await subscriber((r, res) => (r.method === 'GET' ? goodSubscriber(r, res) : res.writeHead(fail ? 503 : 200).end()));
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    await hub.worker.onRevision(hub.catalog());
    await sleep(150);
    assert.equal(sub.posts().length, 0, 'same bytes, nothing sent');
    await hub.publish();
    await waitFor(() => sub.posts().length === 1, 'first attempt');
    fail = false;
    const newest = await hub.publish();
    await waitFor(() => sub.posts().length === 2, 'retry');
    await sleep(500);
    assert.equal(sub.posts().length, 2, 'the older revision is not sent after the newer one');
    assert.deepEqual(sub.posts()[1].body, newest.representations.feedAtom.body);
  });

  test('3 consecutive failures remove the subscription and send hub.mode=denied with a reason', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber((r, res) => (r.method === 'GET' ? goodSubscriber(r, res) : res.writeHead(500).end('nope')));
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    await hub.publish();
    const [denied] = await waitFor(
      () =>
        sub.gets().filter((g) => g.query.get('hub.mode') === 'denied').length === 1 &&
        sub.gets().filter((g) => g.query.get('hub.mode') === 'denied'),
      'denied',
    );
    assert.equal(sub.posts().length, 3);
    assert.equal(denied.query.get('hub.topic'), topics().feedAtom);
    assert.match(denied.query.get('hub.reason') ?? '', /3 consecutive delivery failures/);
    assert.deepEqual(await listSubscriptions(hub.store), []);
    await hub.publish();
    await sleep(200);
    assert.equal(sub.posts().length, 3, 'nothing after removal');
    const m = await hub.worker.metrics();
    assert.equal(m.counters.removedAfterFailures, 1);
    assert.equal(m.counters.deliveriesFailed, 3);
  });

  test('a success resets the failure count', async () => {
    const { hub, subscriber, topics } = await setup();
    let n = 0;
    // Fails, fails, succeeds; then fails, fails, succeeds: never 3 in a row.
    const sub = await subscriber((r, res) =>
      r.method === 'GET' ? goodSubscriber(r, res) : res.writeHead(++n % 3 === 0 ? 200 : 500).end(),
    );
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    await hub.publish();
    await waitFor(() => sub.posts().length === 3, 'three attempts');
    await waitFor(() => hub.worker.metrics().then((m) => m.pendingDeliveries === 0), 'job done');
    await hub.publish();
    await waitFor(() => sub.posts().length === 6, 'three more attempts');
    await waitFor(() => hub.worker.metrics().then((m) => m.pendingDeliveries === 0), 'job done');
    const [s] = await active(hub);
    assert.equal(s.consecutive_failures, 0);
  });

  test('410 Gone removes the subscription at once', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber((r, res) => (r.method === 'GET' ? goodSubscriber(r, res) : res.writeHead(410).end()));
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    await hub.publish();
    await waitFor(() => listSubscriptions(hub.store).then((l) => l.length === 0), 'removed');
    await sleep(200);
    assert.equal(sub.posts().length, 1);
  });

  test('a redirect answer to a notification is a failure and is not followed', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber((r, res) => {
      if (r.method === 'GET') return goodSubscriber(r, res);
      res.writeHead(307, { location: '/moved' }).end();
    });
    await hub.subscribe(topics().feedAtom, sub.url('/cb'));
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    await hub.publish();
    await waitFor(() => sub.posts('/cb').length === 1, 'delivery');
    await waitFor(() => active(hub).then((a) => a[0]?.consecutive_failures === 1), 'counted as a failure');
    assert.equal(sub.posts('/moved').length, 0);
  });

  test('an expired lease gets nothing', async () => {
    const { hub, subscriber, topics } = await setup({ leaseMinSeconds: 1 });
    const sub = await subscriber();
    await hub.subscribe(topics().feedAtom, sub.url(), { 'hub.lease_seconds': '1' });
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    assert.equal(sub.gets()[0].query.get('hub.lease_seconds'), '1');
    await sleep(1_100);
    await hub.publish();
    await sleep(300);
    assert.equal(sub.posts().length, 0);
    assert.deepEqual(await active(hub), []);
  });
});

describe('unsubscribe', () => {
  test('removes only after its own successful handshake; hub.lease_seconds is ignored', async () => {
    const { hub, subscriber, topics } = await setup();
    let confirmUnsubscribe = false;
    const sub = await subscriber((r, res) => {
      if (r.method === 'GET' && r.query.get('hub.mode') === 'unsubscribe' && !confirmUnsubscribe) return res.writeHead(404).end();
      goodSubscriber(r, res);
    });
    await hub.subscribe(topics().feedAtom, sub.url());
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    const unsubscribe = { 'hub.mode': 'unsubscribe', 'hub.topic': topics().feedAtom, 'hub.callback': sub.url(), 'hub.lease_seconds': '50' };
    assert.equal((await hub.post(unsubscribe)).status, 202);
    await waitFor(() => sub.gets().length === 2, 'unsubscribe verification');
    const get = sub.gets()[1];
    assert.equal(get.query.get('hub.mode'), 'unsubscribe');
    assert.equal(get.query.get('hub.lease_seconds'), null);
    await sleep(200);
    assert.equal((await active(hub)).length, 1, 'a refused unsubscribe leaves the subscription');
    confirmUnsubscribe = true;
    await hub.post(unsubscribe);
    await waitFor(() => active(hub).then((a) => a.length === 0), 'removed');
    await hub.publish();
    await sleep(200);
    assert.equal(sub.posts().length, 0, 'notifications stop');
  });

  test('a failed re-subscribe leaves the previous subscription and secret unchanged', async () => {
    const { hub, subscriber, topics } = await setup();
    let accept = true;
    const sub = await subscriber((r, res) => (accept ? goodSubscriber(r, res) : res.writeHead(500).end()));
    await hub.subscribe(topics().feedAtom, sub.url(), { 'hub.secret': 'keep-me' });
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    accept = false;
    await hub.subscribe(topics().feedAtom, sub.url(), { 'hub.lease_seconds': '400' });
    await waitFor(() => sub.gets().length === 2, 'second verification');
    await sleep(200);
    accept = true;
    const [s] = await active(hub);
    assert.equal(s.signed, true);
    await hub.publish();
    await waitFor(() => sub.posts().length === 1, 'delivery');
    assert.equal(sub.posts()[0].headers['x-hub-signature'], hmac('keep-me', sub.posts()[0].body));
  });
});

describe('safety', () => {
  test('outside the test setting, loopback and localhost callbacks are refused without any request', async () => {
    const { hub, subscriber, topics } = await setup({ allowPrivateCallbacks: false });
    const sub = await subscriber();
    for (const cb of [
      sub.url(),
      `https://localhost:${new URL(sub.origin).port}/cb`,
      'https://[::1]/cb',
      'https://[::ffff:127.0.0.1]/cb',
      'https://10.0.0.1/cb',
      'https://169.254.169.254/latest',
    ]) {
      const res = await hub.subscribe(topics().feedAtom, cb);
      assert.equal(res.status, 403, cb);
      assert.match(res.text, /refused/);
    }
    await sleep(200);
    assert.equal(sub.received.length, 0);
  });

  test('subscribe requests are rate-limited per client address and per callback host', async () => {
    const { hub, subscriber, topics } = await setup({
      rateLimitPerClient: { perMinute: 1, burst: 3 },
      rateLimitPerCallbackHost: { perMinute: 1000, burst: 1000 },
    });
    const sub = await subscriber();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await hub.subscribe(topics().feedAtom, sub.url(`/c${i}`))).status);
    assert.deepEqual(statuses, [202, 202, 202, 429]);
    const limited = await hub.subscribe(topics().feedAtom, sub.url('/c9'));
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);

    const other = await setup({
      rateLimitPerClient: { perMinute: 1000, burst: 1000 },
      rateLimitPerCallbackHost: { perMinute: 1, burst: 2 },
    });
    const s2 = await other.subscriber();
    const st2 = [];
    for (let i = 0; i < 3; i++) st2.push((await other.hub.subscribe(other.topics().feedAtom, s2.url(`/c${i}`))).status);
    assert.deepEqual(st2, [202, 202, 429]);
  });

  test('pending verifications are capped (503), a repeat for the same pair replaces the pending one', async () => {
    const { hub, subscriber, topics } = await setup({ maxPendingVerifications: 2 });
    const sub = await subscriber(() => {
      /* hold every verification */
    });
    await hub.worker.stop();
    assert.equal((await hub.subscribe(topics().feedAtom, sub.url('/1'))).status, 202);
    assert.equal((await hub.subscribe(topics().feedAtom, sub.url('/2'))).status, 202);
    const third = await hub.subscribe(topics().feedAtom, sub.url('/3'));
    assert.equal(third.status, 503);
    assert.equal((await hub.subscribe(topics().feedAtom, sub.url('/2'), { 'hub.lease_seconds': '900' })).status, 202);
    assert.equal((await hub.worker.metrics()).pendingVerifications, 2);
  });

  test('secrets never appear in logs', async () => {
    const { hub, subscriber, topics } = await setup();
    const secret = 'S3cr3t-value-never-logged';
    const sub = await subscriber((r, res) => (r.method === 'GET' ? goodSubscriber(r, res) : res.writeHead(500).end()));
    await hub.subscribe(topics().feedAtom, sub.url('/x?capability=tok123'), { 'hub.secret': secret });
    await waitFor(() => active(hub).then((a) => a.length === 1), 'active');
    await hub.publish();
    await waitFor(() => hub.logs.text.includes('removed after consecutive delivery failures'), 'removal');
    await hub.subscribe(topics().feedAtom, sub.url('/y'), { 'hub.secret': `${secret}${'x'.repeat(300)}` });
    assert.equal(hub.logs.text.includes(secret), false);
    assert.equal(hub.logs.text.includes('tok123'), false, 'callback query strings are not logged either');
  });
});

describe('operators', () => {
  test('list shows subscriptions without secrets; remove by id or callback; metrics text', async () => {
    const { hub, subscriber, topics } = await setup();
    const sub = await subscriber();
    await hub.subscribe(topics().feedAtom, sub.url('/a'), { 'hub.secret': 'zzz-secret' });
    await hub.subscribe(topics().feedJson, sub.url('/a'));
    await hub.subscribe(topics().feedJson, sub.url('/b'));
    await waitFor(() => active(hub).then((a) => a.length === 3), 'three active');
    const list = await listSubscriptions(hub.store);
    assert.equal(JSON.stringify(list).includes('zzz-secret'), false);
    assert.equal(list[0].signed, true);
    const table = formatSubscriptions(list).split('\n');
    assert.equal(table.length, 4);
    assert.match(table[1], new RegExp(`^${list[0].id}\t${topics().feedAtom.replace(/[.]/g, '\\.')}\t`));
    assert.equal(formatSubscriptions([]), 'no subscriptions');
    const text = await hub.worker.metricsText();
    assert.match(text, /reviewcast_websub_active_subscriptions 3/);
    assert.match(text, /reviewcast_websub_verifications_total\{outcome="succeeded"\} 3/);
    assert.equal(await removeSubscription(hub.store, sub.url('/a')), 2);
    assert.equal(await removeSubscription(hub.store, String(list[2].id)), 1);
    assert.equal(await removeSubscription(hub.store, 999), 0);
    assert.deepEqual(await listSubscriptions(hub.store), []);
  });
});
