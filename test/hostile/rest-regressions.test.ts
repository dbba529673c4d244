import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { client } from '../helpers/http.js';
import { startTestServer } from '../helpers/server.js';

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
