import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { Store } from '../../src/store/index.js';
import { startTestServer, tempDir } from '../helpers/index.js';

let server: RunningServer | undefined;
after(() => server?.close());

const NOT_READY = /run `reviewcast business set FILE`/;

async function notReady(path: string) {
  const res = await fetch(`${server!.url}${path}`);
  assert.equal(res.status, 503, path);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, path);
  const body = await res.json();
  assert.equal(body.error, 'not_ready', path);
  assert.match(body.message, NOT_READY, path);
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message'], path);
}

test('without a stored profile (and no demo) the service is not ready, then serves the profile stored later', async () => {
  const db = join(tempDir(), 'no-profile.db');
  server = await startTestServer({ DATABASE_URL: db, REVIEWCAST_DEMO_IF_EMPTY: false, REVIEWCAST_POLL_MS: 50 });
  for (const path of ['/readyz', '/reviews.json', '/insights.json', '/feed.xml', '/api/reviews/search?q=leak', '/']) await notReady(path);
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'alive, only not ready');
  // Polling keeps checking without building anything.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(server.catalog.loaded, false);

  // Waits on the scheduler's own signal, not on a clock: how long a build takes depends on the machine's load.
  const firstRevision = new Promise<void>((resolve) => server!.catalog.onRevision(() => resolve()));
  const store = await Store.open(db);
  const business = { ...demoBusiness(), name: 'Stored Profile Plumbing' };
  await store.setBusiness(business, new Date().toISOString());
  await store.close();
  await firstRevision;
  const ready = await fetch(`${server.url}/readyz`);
  assert.equal(ready.status, 200);
  assert.equal((await ready.json()).reviews, 0);
  const doc = await (await fetch(`${server.url}/reviews.json`)).json();
  assert.equal(doc.business.name, 'Stored Profile Plumbing', 'the stored name, never the demo');
  assert.equal(doc.reviews.length, 0);
  // A profile without reviews is loaded once, not again at every check.
  const first = server.catalog.get();
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(server.catalog.get(), first, 'the same catalog object: no rebuild while nothing changed');
});
