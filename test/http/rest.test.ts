import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLValidator } from 'fast-xml-parser';
import type { RunningServer } from '../../src/app/index.js';
import { JsonFeedSchema, type Review, ReviewsDocumentSchema } from '../../src/domain/index.js';
import { WAIT_FOR_CODING_UP_TO } from '../../src/http/index.js';
import { client, startTestServer } from '../helpers/index.js';

let server: RunningServer;
let http: ReturnType<typeof client>;
let all: Review[];

after(() => server?.close());
before(async () => {
  server = await startTestServer();
  http = client(server.url);
  all = (await http.get('/reviews.json')).json().reviews;
});

describe('datasets', () => {
  test('/reviews.json has the business, the aggregate rating and every review newest first', async () => {
    const res = await http.get('/reviews.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    const doc = ReviewsDocumentSchema.parse(res.json());
    assert.equal(doc.business.name, 'Brightwater Plumbing & Heating');
    assert.equal(doc.reviews.length, 2000);
    assert.equal(doc.aggregate_rating.rating_count, 2000);
    const mean = doc.reviews.reduce((s, r) => s + r.rating, 0) / doc.reviews.length;
    assert.equal(doc.aggregate_rating.rating_value, Math.round(mean * 100) / 100);
    for (let i = 1; i < doc.reviews.length; i++) {
      const [a, b] = [doc.reviews[i - 1], doc.reviews[i]];
      assert.ok(
        a.date > b.date || (a.date === b.date && (a.published_at > b.published_at || (a.published_at === b.published_at && a.id > b.id))),
        `order at ${i}`,
      );
    }
    assert.ok(doc.reviews.every((r) => r.verified && r.url === `${server.config.publicBaseUrl}/reviews/${r.id}`));
  });

  test('the three WebSub topics advertise hub and self on GET and HEAD', async () => {
    const base = server.config.publicBaseUrl!;
    for (const path of ['/reviews.json', '/api/feed.json', '/feed.xml']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await http.get(path, { method });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('link'), `<${base}/api/websub/hub>; rel="hub", <${base}${path}>; rel="self"`);
        if (method === 'HEAD') assert.equal(res.text, '');
      }
    }
  });

  test('JSON Feed 1.1 with the 50 newest reviews and a WebSub hub', async () => {
    const res = await http.get('/api/feed.json');
    assert.match(res.headers.get('content-type')!, /^application\/feed\+json/);
    const feed = JsonFeedSchema.parse(res.json());
    assert.equal(feed.items.length, 50);
    assert.deepEqual(
      feed.items.map((i) => i.id),
      all.slice(0, 50).map((r) => r.id),
    );
    assert.equal(feed.hubs[0].url, `${server.config.publicBaseUrl}/api/websub/hub`);
    assert.equal(feed.items[0]._review.rating, all[0].rating);
  });

  test('Atom parses with a real feed parser and matches the JSON', async () => {
    const res = await http.get('/feed.xml');
    assert.match(res.headers.get('content-type')!, /^application\/atom\+xml/);
    assert.equal(XMLValidator.validate(res.text), true);
    const feed = parseFeed(res.text);
    assert.equal(feed.items.length, 50);
    assert.equal(feed.items[0].url, all[0].url);
    assert.equal(new Set(feed.items.map((i) => i.id)).size, 50, 'unique entry ids');
    assert.ok(res.text.includes('rel="hub"') && res.text.includes('rel="self"'));
  });

  test('/insights.json is served as JSON with numbers recomputable from the reviews', async () => {
    const res = await http.get('/insights.json');
    assert.equal(res.status, 200);
    const insights = res.json();
    assert.equal(insights.review_count, all.length);
  });
});

describe('conditional GET and compression', () => {
  for (const path of ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml', '/api/reviews/since/2026-01-01']) {
    test(`${path}: strong ETag, 304 on If-None-Match (single, list, *), If-Modified-Since`, async () => {
      const first = await http.get(path);
      const etag = first.headers.get('etag')!;
      assert.match(etag, /^"[^"]+"$/, 'strong');
      assert.ok(first.headers.get('last-modified'));
      assert.match(first.headers.get('cache-control')!, /public, max-age=\d+/);
      for (const inm of [etag, `"nope", ${etag}`, '*', `W/${etag}`]) {
        const r = await http.get(path, { headers: { 'if-none-match': inm } });
        assert.equal(r.status, 304, inm);
        assert.equal(r.text, '');
      }
      assert.equal((await http.get(path, { headers: { 'if-none-match': '"other"' } })).status, 200);
      assert.equal((await http.get(path, { headers: { 'if-modified-since': first.headers.get('last-modified')! } })).status, 304);
      assert.equal((await http.get(path, { headers: { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' } })).status, 200);
      // If-None-Match wins over If-Modified-Since.
      assert.equal(
        (await http.get(path, { headers: { 'if-none-match': '"other"', 'if-modified-since': first.headers.get('last-modified')! } }))
          .status,
        200,
      );
    });
  }

  test('br and gzip variants decode to the identity bytes, chosen by Accept-Encoding', async () => {
    const plain = await fetch(`${server.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
    const identity = Buffer.from(await plain.arrayBuffer());
    assert.equal(plain.headers.get('vary'), 'Accept-Encoding');
    for (const [enc, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      // undici decodes transparently; read the raw bytes with node:http instead. Identity refused: the
      // answer waits for the coding (a large body's first request may otherwise come in identity).
      const raw = await rawGet(`${server.url}/reviews.json`, { 'accept-encoding': `${enc}, identity;q=0` });
      assert.equal(raw.headers['content-encoding'], enc);
      assert.deepEqual(decode(raw.body), identity);
      assert.notEqual(raw.headers.etag, plain.headers.get('etag'), 'each coding has its own strong ETag');
    }
    const prefersGzip = await rawGet(`${server.url}/reviews.json`, { 'accept-encoding': 'br;q=0.5, gzip' });
    assert.equal(prefersGzip.headers['content-encoding'], 'gzip');
  });

  test('a large body is answered at once in identity while its coding is made, then in that coding', async () => {
    // A fresh server: nothing has asked for this revision's br coding yet.
    const fresh = await startTestServer();
    try {
      const url = `${fresh.url}/insights.json`;
      const identity = await rawGet(url, { 'accept-encoding': 'identity' });
      assert.ok(identity.body.length > WAIT_FOR_CODING_UP_TO, `${identity.body.length} bytes: large enough to test`);
      const first = await rawGet(url, { 'accept-encoding': 'br' });
      assert.equal(first.headers['content-encoding'], undefined);
      assert.equal(first.headers.vary, 'Accept-Encoding');
      assert.equal(first.headers.etag, identity.headers.etag);
      assert.ok(first.body.equals(identity.body));
      // Identity refused: this one waits for the coding the first request started.
      const refused = await rawGet(url, { 'accept-encoding': 'br, identity;q=0' });
      assert.equal(refused.headers['content-encoding'], 'br');
      assert.ok(brotliDecompressSync(refused.body).equals(identity.body));
      const later = await rawGet(url, { 'accept-encoding': 'br' });
      assert.equal(later.headers['content-encoding'], 'br');
      assert.equal(later.headers.etag, refused.headers.etag);
      // The identity answer's validator still matches a client that later accepts br.
      const revalidated = await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
      assert.equal(revalidated.status, 304);
    } finally {
      await fresh.close();
    }
  });
});

describe('search', () => {
  test('filters combine with AND, newest first, matched counts everything', async () => {
    const res = await http.get('/api/reviews/search?min_rating=4&since=2025-01-01&until=2025-12-31&query=LEAK&limit=5');
    assert.equal(res.status, 200);
    const body = res.json();
    const expected = all.filter(
      (r) => r.rating >= 4 && r.date >= '2025-01-01' && r.date <= '2025-12-31' && (r.text ?? '').toLowerCase().includes('leak'),
    );
    assert.ok(expected.length > 5);
    assert.equal(body.matched, expected.length);
    assert.equal(body.returned, 5);
    assert.deepEqual(
      body.reviews.map((r: Review) => r.id),
      expected.slice(0, 5).map((r) => r.id),
    );
  });

  test('technician and service match id, name or alias, case-insensitively', async () => {
    const byId = (await http.get('/api/reviews/search?mentions_technician=sarah-chen&limit=100')).json();
    const byName = (await http.get('/api/reviews/search?mentions_technician=SARAH%20CHEN&limit=100')).json();
    const byAlias = (await http.get('/api/reviews/search?mentions_technician=sarah&limit=100')).json();
    assert.ok(byId.matched > 0);
    assert.equal(byName.matched, byId.matched);
    assert.equal(byAlias.matched, byId.matched);
    assert.equal(byId.matched, all.filter((r) => r.technicians.includes('sarah-chen')).length);
    const svc = (await http.get('/api/reviews/search?mentions_service=water%20heater&rating=5')).json();
    assert.equal(svc.matched, all.filter((r) => r.services.includes('water-heater') && r.rating === 5).length);
    assert.equal((await http.get('/api/reviews/search?mentions_technician=nobody')).json().matched, 0);
  });

  test('query is plain text, never a pattern', async () => {
    const res = await http.get(`/api/reviews/search?query=${encodeURIComponent('.*(a+)+$')}`);
    assert.equal(res.status, 200);
    assert.equal(res.json().matched, 0);
  });

  test('defaults: limit 20; unknown parameters are ignored', async () => {
    const res = (await http.get('/api/reviews/search?foo=bar')).json();
    assert.equal(res.returned, 20);
    assert.equal(res.matched, all.length);
  });

  const invalid: [string, string[]][] = [
    ['rating=4.5', ['rating']],
    ['rating=0', ['rating']],
    ['min_rating=abc', ['min_rating']],
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['since=2025-02-30', ['since']],
    ['rating=5&rating=4', ['rating']],
    ['since=2025-06-01&until=2025-01-01', ['since']],
    // A real since above a date that is not one: only until is wrong (the range rule holds between real dates).
    ['since=2025-06-01&until=2025-02-30', ['until']],
    ['rating=9&limit=500&until=nope', ['rating', 'limit', 'until']],
  ];
  for (const [qs, paths] of invalid) {
    test(`400 with one issue per problem: ${qs}`, async () => {
      const res = await http.get(`/api/reviews/search?${qs}`);
      assert.equal(res.status, 400);
      const body = res.json();
      assert.equal(body.error, 'invalid_query');
      assert.equal(typeof body.message, 'string');
      assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path[0]).sort(), [...paths].sort());
      for (const i of body.issues) assert.ok(i.message && i.code);
    });
  }
});

describe('since', () => {
  test('reviews on or after the date, newest first', async () => {
    const body = (await http.get('/api/reviews/since/2026-06-01')).json();
    const expected = all.filter((r) => r.date >= '2026-06-01');
    assert.equal(body.since, '2026-06-01');
    assert.equal(body.count, expected.length);
    assert.deepEqual(
      body.reviews.map((r: Review) => r.id),
      expected.map((r) => r.id),
    );
  });

  for (const bad of ['2025-02-30', 'abc', '2025-1-1']) {
    test(`malformed date ${bad} → 400 with the error body`, async () => {
      const res = await http.get(`/api/reviews/since/${bad}`);
      assert.equal(res.status, 400);
      assert.equal(res.json().issues[0].path[0], 'date');
    });
  }
});

describe('errors, CORS, credentials, discovery', () => {
  test('unknown path → 404 JSON; wrong method → 405 with Allow', async () => {
    const nf = await http.get('/nope');
    assert.equal(nf.status, 404);
    assert.equal(nf.json().error, 'not_found');
    const wm = await http.get('/reviews.json', { method: 'DELETE' });
    assert.equal(wm.status, 405);
    assert.match(wm.headers.get('allow')!, /GET/);
    assert.equal(wm.json().error, 'method_not_allowed');
  });

  test('any origin may GET; preflight is answered', async () => {
    const res = await http.get('/reviews.json', { method: 'HEAD', headers: { origin: 'https://elsewhere.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const pre = await http.get('/api/reviews/search', {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(pre.status, 204);
    assert.match(pre.headers.get('access-control-allow-methods')!, /GET/);
  });

  test('an Authorization header changes nothing', async () => {
    const a = await http.get('/reviews.json');
    const b = await http.get('/reviews.json', { headers: { authorization: 'Bearer whatever' } });
    assert.equal(b.status, 200);
    assert.equal(b.headers.get('etag'), a.headers.get('etag'));
  });

  test('llms.txt and robots.txt', async () => {
    const llms = await http.get('/llms.txt');
    assert.match(llms.text, /^# Brightwater Plumbing & Heating/);
    assert.ok(llms.text.includes(`${server.config.publicBaseUrl}/mcp`));
    assert.ok(llms.text.includes('api/websub/hub'));
    assert.match((await http.get('/robots.txt')).text, /User-agent: \*/);
  });

  test('healthz and readyz', async () => {
    assert.equal((await http.get('/healthz')).json().status, 'ok');
    assert.equal((await http.get('/readyz')).json().status, 'ready');
  });

  test('every response of a documented endpoint is validated against /openapi.json as it arrives', async () => {
    // The client throws on a mismatch, so every test above checks its own responses; this one checks the client does check.
    const own = client(server.url);
    const documented = [
      '/reviews.json',
      '/insights.json',
      '/api/feed.json',
      '/api/reviews/search?rating=5',
      '/api/reviews/search?rating=9',
    ];
    for (const path of documented) await own.get(path);
    await own.get('/no-such-path');
    assert.equal(own.validated(), documented.length, 'each documented response once; the 404 of an unknown path is not in the document');
  });
});

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return import('node:http').then(
    ({ get }) =>
      new Promise((resolve, reject) => {
        get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      }),
  );
}
