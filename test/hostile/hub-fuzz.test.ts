import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type TestHub, type TestPki, Subscriber, goodSubscriber, makePki, startHub } from '../websub/harness.js';

const pki: TestPki = makePki();

describe('the callback host is bucketed by its canonical spelling', () => {
  let hub: TestHub;
  let sub: Subscriber;
  before(async () => {
    hub = await startHub(pki, { rateLimitPerClient: { perMinute: 6000, burst: 1000 }, rateLimitPerCallbackHost: { perMinute: 1, burst: 2 } });
    sub = await Subscriber.start(pki, goodSubscriber);
  });
  after(async () => {
    await hub.close();
    await sub.close();
  });

  test('a trailing dot, upper case or a second dot does not open a new bucket', async () => {
    const port = new URL(sub.origin).port;
    const topic = hub.catalog().links.feedAtom;
    const spellings = ['localhost', 'localhost.', 'LOCALHOST.', 'LocalHost..'];
    const statuses = [];
    for (const [i, host] of spellings.entries()) statuses.push((await hub.subscribe(topic, `https://${host}:${port}/cb${i}`)).status);
    assert.deepEqual(statuses, [202, 202, 429, 429]);
  });
});
