import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { client, rawDb, startTestServer, storedReviews } from '../helpers/index.js';

// The hostile-load findings of issue 13 on the REST surface, each reproduced exactly as found.

let server: RunningServer;
let http: ReturnType<typeof client>;

before(async () => {
  server = await startTestServer();
  http = client(server.url);
});
after(() => server?.close());

describe('If-Modified-Since that is not an HTTP-date is ignored', () => {
  for (const path of ['/reviews.json', '/api/feed.json', '/api/reviews/since/2026-01-01', '/api/reviews/search?rating=5', '/feed.xml']) {
    test(path, async () => {
      for (const value of ['9999', '2999-01-01', 'Fri, 31 Dec 9999 23:59:59 UTC', 'tomorrow']) {
        const res = await http.get(path, { headers: { 'if-modified-since': value } });
        assert.equal(res.status, 200, value);
      }
      const lastModified = (await http.get(path)).headers.get('last-modified')!;
      assert.equal((await http.get(path, { headers: { 'if-modified-since': lastModified } })).status, 304);
    });
  }

  test('the review page too', async () => {
    const res = await fetch(`${server.url}/`, { headers: { 'if-modified-since': '9999' } });
    assert.equal(res.status, 200);
  });
});

async function raw(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}${path}`, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The contract's error body, with issues on every 400. */
export function assertErrorBody(res: { status: number; headers: Headers; text: string }, where: string) {
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `${where}: content-type`);
  const body = JSON.parse(res.text);
  assert.equal(typeof body.error, 'string', `${where}: error`);
  assert.equal(typeof body.message, 'string', `${where}: message`);
  assert.deepEqual(
    Object.keys(body).filter((k) => !['error', 'message', 'issues'].includes(k)),
    [],
    `${where}: no other keys`,
  );
  if (res.status === 400) assert.ok(Array.isArray(body.issues), `${where}: issues on a 400`);
}

describe('error bodies are the contract', () => {
  test('OPTIONS without preflight headers: 204 with Allow on a published path, 404 JSON elsewhere', async () => {
    const res = await fetch(`${server.url}/reviews.json`, { method: 'OPTIONS' });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const search = await fetch(`${server.url}/api/reviews/since/2026-01-01`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example' },
    });
    assert.equal(search.status, 204);
    assert.equal(search.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const nowhere = await fetch(`${server.url}/nothing-here`, { method: 'OPTIONS' });
    assert.equal(nowhere.status, 404);
    assertErrorBody({ status: 404, headers: nowhere.headers, text: await nowhere.text() }, 'OPTIONS /nothing-here');
    // A real preflight is still answered by CORS.
    const pre = await fetch(`${server.url}/reviews.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  });

  for (const path of ['/api/reviews/since/%ZZ', '/api/reviews/search/%E0%A4%A', '/%ZZ', '/reviews/%ZZ', '/api/reviews/since/%C0%AF']) {
    test(`a path that is not valid percent-encoding is a 400 with the error body: ${path}`, async () => {
      const res = path.startsWith('/api/reviews/since/') ? await http.get(path) : await raw(path);
      assert.equal(res.status, 400);
      assertErrorBody(res, path);
      assert.equal(JSON.parse(res.text).error, 'bad_url');
    });
  }

  test("a long path parameter is judged by its route; past the router's limit it is 414 with the error body", async () => {
    const long = await http.get(`/api/reviews/since/${'1'.repeat(300)}`);
    assert.equal(long.status, 400);
    assert.equal(long.json().issues[0].path[0], 'date');
    const tooLong = await http.get(`/api/reviews/since/${'1'.repeat(3000)}`);
    assert.equal(tooLong.status, 414);
    assertErrorBody(tooLong, 'too long parameter');
    const page = await raw(`/reviews/${'x'.repeat(300)}`);
    assert.equal(page.status, 404);
    assertErrorBody(page, 'long review id');
  });

  test('"since after until" is reported together with the other invalid fields', async () => {
    for (const [other, field] of [
      ['rating=abc', 'rating'],
      ['rating=2.5', 'rating'],
      ['limit=x', 'limit'],
      ['limit=0', 'limit'],
    ]) {
      const res = await http.get(`/api/reviews/search?since=2025-01-30&until=2020-01-01&${other}`);
      assert.equal(res.status, 400);
      assertErrorBody(res, other);
      const issues = res
        .json()
        .issues.map((i: { path: string[] }) => i.path.join('.'))
        .sort();
      assert.deepEqual(issues, [field, 'since'], other);
      assert.match(res.json().issues.find((i: { path: string[] }) => i.path[0] === 'since').message, /after until/);
    }
  });

  test('GET /mcp is 405 with a JSON-RPC error body (the MCP transport, documented as such)', async () => {
    const res = await fetch(`${server.url}/mcp`);
    assert.equal(res.status, 405);
    const body = await res.json();
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(typeof body.error.message, 'string');
  });
});

describe('search memo keys are exact', () => {
  test('a query whose values contain the old key separator gets its own answer, not a cached neighbour', async () => {
    // A row stored as received (as rows imported before text normalisation were), with NUL and SOH in its text.
    const [r] = storedReviews(1, 13, 'nul');
    const before = (await http.get('/readyz')).json().reviews;
    const raw = rawDb(server.config.databaseUrl);
    await raw.transaction().execute(async (trx) => {
      const rev = await trx
        .insertInto('revisions')
        .values({ created_at: new Date().toISOString(), reason: 'test: a raw row' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('reviews')
        .values({
          id: r.id,
          source: r.source,
          source_review_id: null,
          fingerprint: r.version,
          author: r.author,
          rating: r.rating,
          date: r.date,
          text: 'Fixed the leak [\u0000\u0001 fast.',
          verified: 1,
          published: 1,
          published_at: r.published_at,
          updated_at: r.updated_at,
          first_seen_at: r.first_seen_at,
          technicians: '[]',
          services: '[]',
          verification_method: 'platform',
          content_hash: r.version,
          row_hash: r.version,
          changed_revision: rev.id,
        })
        .execute();
    });
    await raw.destroy();
    while ((await http.get('/readyz')).json().reviews !== before + 1) await new Promise((r) => setTimeout(r, 50));

    const first = await http.get('/api/reviews/search?query=%5B&mentions_technician=%01%00');
    assert.equal(first.json().matched, 0);
    const second = await http.get('/api/reviews/search?query=%5B%00%01');
    assert.equal(second.json().matched, 1, 'the NUL query matches the raw row');
    assert.notEqual(second.headers.get('etag'), first.headers.get('etag'));
  });
});
