import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Store } from '../../src/store/index.js';
import { listSubscriptions } from '../../src/websub/index.js';
import { fakeCatalog, goodSubscriber, makePki, Subscriber, tempDir, waitFor } from '../helpers/index.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/hub-process.ts', import.meta.url));
const BASE = 'https://reviews.example';
const N = 30;

test('kill -9 in the middle of a fan-out, and between a revision and its announcement: every notification arrives after restart', async () => {
  const pki = makePki();
  const dir = tempDir();
  const env = { ...process.env, HUB_DB: join(dir, 'hub.db'), HUB_CA_FILE: pki.caFile, HUB_REVISION_FILE: join(dir, 'revision') };
  // A slow subscriber (each notification takes 100 ms), so a fan-out of N is still running when killed.
  const sub = await Subscriber.start(pki, (r, res) =>
    r.method === 'GET' ? goodSubscriber(r, res) : setTimeout(() => res.writeHead(204).end(), 100),
  );
  const store = await Store.open(env.HUB_DB);
  let child: ChildProcess | null = null;
  after(async () => {
    child?.kill('SIGKILL');
    await sub.close();
    await store.close();
  });
  const start = async () => {
    child = fork(FIXTURE, { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise<{ url: string }>((resolve) => child!.once('message', (m) => resolve(m as { url: string })));
  };
  const kill9 = async () => {
    const c = child!;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  const bodyOf = (revision: number) => fakeCatalog(revision, BASE, { padBytes: 2_000 }).representations.feedJson.body;
  /** Paths that received the given revision's bytes. */
  const deliveredPaths = (revision: number) =>
    new Set(
      sub
        .posts()
        .filter((p) => p.body.equals(bodyOf(revision)))
        .map((p) => p.url),
    );

  let { url } = await start();
  for (let i = 0; i < N; i++) {
    const res = await fetch(`${url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': `${BASE}/api/feed.json`, 'hub.callback': sub.url(`/s${i}`) }),
    });
    assert.equal(res.status, 202);
  }
  await waitFor(() => listSubscriptions(store).then((l) => l.length === N), 'all subscriptions active', 15_000);

  // 1. Killed mid fan-out.
  child!.send('publish');
  await waitFor(() => sub.posts().length >= 3, 'first deliveries');
  await kill9();
  const before = deliveredPaths(2).size;
  assert.ok(before < N, `the fan-out was interrupted (${before}/${N} delivered)`);
  ({ url } = await start());
  await waitFor(() => deliveredPaths(2).size === N, 'every subscriber got revision 2 after the restart', 20_000);

  // 2. Killed after the new revision exists but before it was announced: the restart announces it.
  child!.send('publish-then-die');
  await new Promise((r) => child!.once('exit', r));
  assert.equal(deliveredPaths(3).size, 0);
  await start();
  await waitFor(() => deliveredPaths(3).size === N, 'every subscriber got revision 3 after the restart', 20_000);
  await waitFor(() => store.hubSubscriptions.gauges(Date.now()).then((g) => g.pendingDeliveries === 0), 'queue drained');
});
