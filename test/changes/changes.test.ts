import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Store } from '../../src/store/index.js';
import { client, freshPgDatabase, PG_SKIP, type ServerProcess, spawnServe, startTestServer, tempDir } from '../helpers/index.js';
import { mirrorScenario } from './mirror.js';

test('SQLite: a client mirror kept by the change feed equals /reviews.json', async () => {
  const db = join(tempDir(), 'mirror.db');
  const server = await startTestServer({ DATABASE_URL: db });
  after(() => server.close());
  const store = await Store.open(db);
  after(() => store.close());
  await mirrorScenario(store, [server.url]);
});

test('the change feed: conditional GET, a 400 for foreign or malformed cursors', async () => {
  const server = await startTestServer();
  after(() => server.close());
  const http = client(server.url);
  const first = await http.get('/api/reviews/changes?limit=50');
  assert.equal(first.status, 200);
  const body = first.json();
  assert.equal(body.changes.length, 50);
  assert.match(first.headers.get('link')!, /^<[^>]+\/api\/reviews\/changes\?after=[^>]+>; rel="next"$/);
  const again = await http.get('/api/reviews/changes?limit=50', { headers: { 'if-none-match': first.headers.get('etag')! } });
  assert.equal(again.status, 304);
  const search = (await http.get('/api/reviews/search?limit=1')).json();
  for (const after of [search.next_cursor, 'nonsense!', Buffer.from('{"v":9}').toString('base64url')]) {
    const res = await http.get(`/api/reviews/changes?after=${encodeURIComponent(after)}`);
    assert.equal(res.status, 400);
    const err = res.json();
    assert.deepEqual(
      err.issues.map((i: { path: string[] }) => i.path),
      [['after']],
    );
  }
  // A caught-up client polls with now_cursor and gets nothing new.
  const now = (await http.get(`/api/reviews/changes?after=${body.now_cursor}`)).json();
  assert.deepEqual(now.changes, []);
  assert.equal(now.next_cursor, null);
});

describe('PostgreSQL, two replicas serving alternate requests', { skip: PG_SKIP }, () => {
  test('a client mirror kept by the change feed equals /reviews.json', async () => {
    const db = await freshPgDatabase();
    const replicas: ServerProcess[] = [];
    after(async () => {
      await Promise.all(replicas.map((r) => r.stop()));
      await db.drop();
    });
    const start = () =>
      spawnServe(['--port', '0', '--database-url', db.url, '--public-base-url', 'https://reviews.mirror.example'], {
        REVIEWCAST_POLL_MS: '500',
      });
    replicas.push(await start());
    replicas.push(await start());
    const store = await Store.open(db.url);
    after(() => store.close());
    await mirrorScenario(
      store,
      replicas.map((r) => r.url),
    );
  });
});
