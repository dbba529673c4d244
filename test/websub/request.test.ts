import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HubConfigSchema, parseHubRequest, refuseUrl } from '../../src/websub/index.js';

describe('request validation', () => {
  const topics = ['https://r.example/feed.xml', 'https://r.example/api/feed.json', 'https://r.example/reviews.json'];
  const cfg = HubConfigSchema.parse({});
  const parse = (f: Record<string, string>) => parseHubRequest(new URLSearchParams(f), topics, cfg, (u) => refuseUrl(u, false));
  const base = { 'hub.mode': 'subscribe', 'hub.topic': topics[0], 'hub.callback': 'https://sub.example/cb?x=1' };

  test('a minimal subscribe gets the default lease and no secret', () => {
    const r = parse(base);
    assert.ok(r.ok);
    assert.deepEqual(r.value, {
      mode: 'subscribe',
      topic: topics[0],
      callback: 'https://sub.example/cb?x=1',
      leaseSeconds: 864_000,
      secret: null,
    });
  });
  test('unsubscribe ignores lease and secret', () => {
    const r = parse({ ...base, 'hub.mode': 'unsubscribe', 'hub.lease_seconds': 'junk', 'hub.secret': 'x' });
    assert.ok(r.ok);
    assert.equal(r.value.leaseSeconds, null);
    assert.equal(r.value.secret, null);
  });
  test('a secret of 199 bytes is accepted, 200 bytes rejected (bytes, not characters)', () => {
    assert.ok(parse({ ...base, 'hub.secret': 'a'.repeat(199) }).ok);
    assert.ok(!parse({ ...base, 'hub.secret': 'a'.repeat(200) }).ok);
    assert.ok(!parse({ ...base, 'hub.secret': 'é'.repeat(100) }).ok);
    assert.ok(!parse({ ...base, 'hub.secret': '' }).ok);
  });
  test('callback rules', () => {
    const status = (cb: string) => {
      const r = parse({ ...base, 'hub.callback': cb });
      return r.ok ? 202 : r.error.status;
    };
    assert.equal(status(`https://sub.example/${'a'.repeat(2020)}`), 202);
    assert.equal(status(`https://sub.example/${'a'.repeat(2040)}`), 400);
    assert.equal(status('http://sub.example/cb'), 400);
    assert.equal(status('ftp://sub.example/cb'), 400);
    assert.equal(status('https://user@sub.example/cb'), 400);
    assert.equal(status('https://sub.example/cb#frag'), 400);
    assert.equal(status('https://127.0.0.1/cb'), 403);
    assert.equal(status('https://[::ffff:a00:1]/cb'), 403);
    assert.equal(status('//sub.example/cb'), 400);
  });
  test('the first value of a repeated field counts', () => {
    const form = new URLSearchParams(base);
    form.append('hub.mode', 'unsubscribe');
    const r = parseHubRequest(form, topics, cfg, () => null);
    assert.ok(r.ok);
    assert.equal(r.value.mode, 'subscribe');
  });
});
