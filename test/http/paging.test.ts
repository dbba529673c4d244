import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import type { Review } from '../../src/domain/index.js';
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

/** Follows Link rel="next" from `path` to the end; checks body and header agree on every page. */
async function follow(path: string): Promise<Review[][]> {
  const pages: Review[][] = [];
  let url: string | null = path;
  while (url) {
    const res = await http.get(url);
    assert.equal(res.status, 200, res.text);
    const body = res.json();
    pages.push(body.reviews);
    const link = res.headers.get('link');
    if (body.next_cursor === null) {
      assert.equal(link, null);
      url = null;
    } else {
      const m = /^<([^>]+)>; rel="next"$/.exec(link ?? '');
      assert.ok(m, `Link header: ${link}`);
      const next = new URL(m[1]);
      assert.equal(next.searchParams.get('cursor'), body.next_cursor);
      url = next.pathname + next.search;
    }
    assert.ok(pages.length < 500);
  }
  return pages;
}

test('search pages through every match by Link rel="next", in each order', async () => {
  const withText = all.filter((r) => r.text && r.rating >= 4);
  const pages = await follow('/api/reviews/search?min_rating=4&has_text=true&limit=100');
  assert.equal(pages.length, Math.ceil(withText.length / 100));
  assert.deepEqual(
    pages.flat().map((r) => r.id),
    withText.map((r) => r.id),
  );
  const lowest = (await follow('/api/reviews/search?sort=lowest&limit=100')).flat();
  assert.deepEqual(
    lowest.map((r) => r.id),
    [...all].sort((a, b) => a.rating - b.rating).map((r) => r.id),
  );
});

test('since/{date} returns everything unless limit is given, then pages', async () => {
  const day = all[Math.floor(all.length / 2)].date;
  const everything = (await http.get(`/api/reviews/since/${day}`)).json();
  assert.equal(everything.next_cursor, null);
  assert.equal(everything.count, all.filter((r) => r.date >= day).length);
  const pages = await follow(`/api/reviews/since/${day}?limit=150`);
  assert.ok(pages.length > 1);
  assert.deepEqual(
    pages.flat().map((r) => r.id),
    everything.reviews.map((r: Review) => r.id),
  );
});

test('a malformed or foreign cursor is a 400 with the error body and an issue on cursor', async () => {
  const first = (await http.get('/api/reviews/search?limit=3')).json();
  const other = (await http.get('/api/reviews/search?limit=3&rating=5')).json();
  for (const path of [
    '/api/reviews/search?cursor=abc!',
    `/api/reviews/search?cursor=${other.next_cursor}`,
    `/api/reviews/search?cursor=${first.next_cursor}&sort=oldest`,
    `/api/reviews/since/2020-01-01?cursor=${other.next_cursor}`,
    '/api/reviews/since/2020-01-01?limit=0',
  ]) {
    const res = await http.get(path);
    assert.equal(res.status, 400, path);
    const body = res.json();
    assert.equal(typeof body.error, 'string');
    assert.equal(typeof body.message, 'string');
    assert.ok(Array.isArray(body.issues) && body.issues.length > 0, path);
  }
});
