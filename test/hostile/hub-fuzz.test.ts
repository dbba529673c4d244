import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type RunningServer, seedDemo } from '../../src/app/index.js';
import { Store } from '../../src/store/index.js';
import { goodSubscriber, makePki, Subscriber, startHub, startTestServer, type TestHub, type TestPki, tempDir } from '../helpers/index.js';

const SEED = 13;
const pki: TestPki = makePki();

describe('the callback host is bucketed by its canonical spelling', () => {
  let hub: TestHub;
  let sub: Subscriber;
  before(async () => {
    hub = await startHub(pki, {
      rateLimitPerClient: { perMinute: 6000, burst: 1000 },
      rateLimitPerCallbackHost: { perMinute: 1, burst: 2 },
    });
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

// ---- a seeded fuzzer over the hub form: the composition root as an api-only replica (requests are
// queued, never verified from here, so nothing leaves 127.0.0.1) ----

describe('hub fuzz', () => {
  let server: RunningServer;
  let topics: string[];
  before(async () => {
    const db = join(tempDir(), 'hub-fuzz.db');
    const store = await Store.open(db);
    await seedDemo(store, 50);
    await store.close();
    server = await startTestServer({
      DATABASE_URL: db,
      REVIEWCAST_DEMO_IF_EMPTY: false,
      REVIEWCAST_ROLE: 'api',
      REVIEWCAST_HUB_REQUESTS_PER_MINUTE: 1_000_000,
    });
    const l = server.catalog.get().links;
    topics = [l.feedAtom, l.feedJson, l.reviewsJson];
  });
  after(() => server?.close());

  const junk = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.constantFrom('%ZZ', '\u0000', '\r\n', '&', '=', ''),
  );
  const field = {
    'hub.mode': fc.oneof(fc.constantFrom('subscribe', 'unsubscribe', 'SUBSCRIBE', 'publish', ''), junk),
    'hub.topic': fc.oneof(
      fc.constantFrom(0, 1, 2).map((i) => `topic:${i}`),
      fc.constantFrom('http://evil.example/feed.xml', ''),
      junk,
    ),
    'hub.callback': fc.oneof(
      fc.constantFrom(
        'https://subscriber.example/cb',
        'https://Subscriber.EXAMPLE./cb?x=1',
        'https://bücher.example/cb',
        'http://subscriber.example/cb',
        'https://10.0.0.1/cb',
        'https://127.0.0.1./cb',
        'https://[::1]/cb',
        'https://[::ffff:7f00:1]/cb',
        'https://localhost../cb',
        'https://0x7f.1/cb',
        'https://user:pw@subscriber.example/cb',
        'https://subscriber.example/cb#frag',
        `https://subscriber.example/${'x'.repeat(3000)}`,
        'javascript:alert(1)',
        '//subscriber.example/cb',
      ),
      junk,
    ),
    'hub.lease_seconds': fc.oneof(fc.constantFrom('', '0', '-1', '1e3', '999999999999', '9999999999999', '86400', ' 60'), junk),
    'hub.secret': fc.oneof(fc.constantFrom('s3cret', 'x'.repeat(250), ''), junk),
  };
  const form = fc.record(field, { requiredKeys: [] });
  const encoding = fc.constantFrom('form', 'form', 'form', 'repeated', 'json', 'none', 'multipart', 'broken', 'huge');

  test('any form: no 5xx but the documented 503, a one-line plain-text answer, 202 only for a valid request', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        form,
        encoding,
        fc.option(fc.tuple(fc.string({ maxLength: 8 }), junk), { nil: undefined }),
        async (f, enc, extra) => {
          const fields: [string, string][] = Object.entries(f).map(([k, v]) => [
            k,
            String(v).replace(/^topic:(\d)$/, (_, i) => topics[Number(i)]),
          ]);
          if (extra) fields.push(extra);
          if (enc === 'repeated' && fields.length) fields.push([fields[0][0], 'other']);
          const urlencoded = new URLSearchParams(fields).toString();
          const [type, body] =
            enc === 'json'
              ? ['application/json', JSON.stringify(Object.fromEntries(fields))]
              : enc === 'none'
                ? [undefined, urlencoded]
                : enc === 'multipart'
                  ? [
                      'multipart/form-data; boundary=x',
                      `--x\r\nContent-Disposition: form-data; name="hub.mode"\r\n\r\nsubscribe\r\n--x--\r\n`,
                    ]
                  : enc === 'broken'
                    ? ['application/x-www-form-urlencoded', `${urlencoded}&hub.mode=%ZZ%&=&&`]
                    : enc === 'huge'
                      ? ['application/x-www-form-urlencoded', `${urlencoded}&pad=${'p'.repeat(20_000)}`]
                      : ['application/x-www-form-urlencoded', urlencoded];
          const res = await fetch(`${server.url}/api/websub/hub`, { method: 'POST', headers: type ? { 'content-type': type } : {}, body });
          const text = await res.text();
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          const where = `${enc} ${body.slice(0, 200)} → ${res.status} ${text}`;
          assert.ok([202, 400, 403, 413, 415, 429, 503].includes(res.status), where);
          assert.match(res.headers.get('content-type') ?? '', /^text\/plain/, where);
          assert.match(text, /^[^\n]+\n$/, where);
          if (res.status === 202) {
            const first = (k: string) => fields.find(([n]) => n === k)?.[1];
            assert.ok(['form', 'repeated', 'broken'].includes(enc), where);
            assert.ok(['subscribe', 'unsubscribe'].includes(first('hub.mode') ?? ''), where);
            assert.ok(topics.includes(first('hub.topic') ?? ''), where);
            assert.match(first('hub.callback') ?? '', /^https:\/\//i, where);
          }
          if (res.status === 403) assert.match(text, /refused/, where);
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
    for (const status of [202, 400, 403, 413, 415]) assert.ok(seen.has(status), `no ${status} among ${[...seen]}`);
  });
});
