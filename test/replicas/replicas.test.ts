import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Store } from '../../src/store/index.js';
import {
  CLI,
  freshPgDatabase,
  makePki,
  PG_SKIP,
  type ServerProcess,
  Subscriber,
  sleep,
  spawnServe,
  type TestPki,
  tempDir,
  waitFor,
} from '../helpers/index.js';

const run = promisify(execFile);
const BASE = 'https://reviews.replicas.example';

describe('three replicas on one PostgreSQL', { skip: PG_SKIP }, () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let pki: TestPki;
  const replicas: ServerProcess[] = [];
  const dir = tempDir();
  let seq = 0;

  const env = () => ({
    REVIEWCAST_HUB_ALLOW_PRIVATE_CALLBACKS: '1',
    REVIEWCAST_HUB_CA_FILE: pki.caFile,
    REVIEWCAST_HUB_CLAIM_LEASE_MS: '3000',
    REVIEWCAST_POLL_MS: '1000',
  });
  const start = () => spawnServe(['--port', '0', '--database-url', db.url, '--public-base-url', BASE], env());
  /** A new revision, imported through the CLI from "another machine". */
  async function publish(): Promise<void> {
    const file = join(dir, `new-${++seq}.ndjson`);
    writeFileSync(
      file,
      `${JSON.stringify({ source: 'direct', source_review_id: `replica-${seq}`, author: `Replica Tester ${seq}`, rating: 5, date: '2026-11-20', text: `Visit ${seq}: Mike fixed the leak fast.` })}\n`,
    );
    await run(process.execPath, [CLI, 'import', file, '--database-url', db.url]);
  }
  const revisionOf = async (r: ServerProcess) => (await (await fetch(`${r.url}/readyz`)).json()).revision as number;

  before(async () => {
    db = await freshPgDatabase();
    pki = makePki();
    // The first replica seeds the empty database; the others join it.
    replicas.push(await start());
    replicas.push(...(await Promise.all([start(), start()])));
  });
  after(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await db?.drop();
  });

  test('an import from the CLI is served by every replica, with equal ETags', async () => {
    const before = await Promise.all(replicas.map(revisionOf));
    assert.equal(new Set(before).size, 1);
    await publish();
    // The bound only stops a hang: how soon replicas follow is a benchmark's question, not a test's.
    await waitFor(
      async () => (await Promise.all(replicas.map(revisionOf))).every((r) => r === before[0] + 1),
      'every replica on the new revision',
      60_000,
    );
    for (const path of ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml']) {
      // Identity: the ETag of the bytes (a large body's coding may be made on one replica and not yet on another).
      const identity = { headers: { 'accept-encoding': 'identity' } };
      const etags = await Promise.all(replicas.map(async (r) => (await fetch(r.url + path, identity)).headers.get('etag')));
      assert.equal(new Set(etags).size, 1, `${path}: ${etags.join(' ')}`);
    }
    const doc = await (await fetch(`${replicas[2].url}/reviews.json`)).json();
    assert.equal(doc.reviews[0].author, `Replica Tester ${seq}`, 'a response is one whole revision');
  });

  test('subscribe through A: one verification and one delivery per subscriber, whichever replica works', async () => {
    const sub = await Subscriber.start(pki);
    after(() => sub.close());
    const callbacks = ['/a', '/b', '/c'].map((p) => sub.url(p));
    for (const cb of callbacks) {
      const res = await fetch(`${replicas[0].url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': `${BASE}/api/feed.json`, 'hub.callback': cb }),
      });
      assert.equal(res.status, 202);
    }
    await waitFor(() => callbacks.every((cb) => sub.gets(new URL(cb).pathname).length === 1), 'every callback verified', 10_000);
    await sleep(1500);
    await publish();
    await waitFor(() => callbacks.every((cb) => sub.posts(new URL(cb).pathname).length >= 1), 'every subscriber notified', 10_000);
    await sleep(2500);
    for (const cb of callbacks) {
      const path = new URL(cb).pathname;
      assert.equal(sub.gets(path).length, 1, `${path}: one verification`);
      assert.equal(sub.posts(path).length, 1, `${path}: one delivery`);
      assert.match(String(sub.posts(path)[0].headers['content-type']), /application\/feed\+json/);
    }
  });

  test('an MCP session created on A is used through B and C', async () => {
    let i = 0;
    // A load balancer without sticky sessions: every request goes to the next replica.
    const roundRobin: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const target = new URL(replicas[i++ % replicas.length].url);
      url.host = target.host;
      return fetch(url, init);
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${replicas[0].url}/mcp`), { fetch: roundRobin });
    const client = new Client({ name: 'replica-test', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(transport);
    assert.ok(transport.sessionId, 'a session-era session');
    for (let k = 0; k < 3; k++) {
      const result = await client.callTool({ name: 'search_reviews', arguments: { rating: 5, limit: 2 } });
      assert.equal(result.isError ?? false, false);
      assert.equal((result.structuredContent as { returned: number }).returned, 2);
    }
    assert.ok(i >= 5, 'requests went to several replicas');
    await client.close();
  });

  test('a replica killed mid fan-out of 500 deliveries loses none', async () => {
    const sub = await Subscriber.start(pki);
    after(() => sub.close());
    // 500 active subscriptions straight in the store (the subscribe path is tested above and rate-limited per client).
    const store = await Store.open(db.url);
    const now = Date.now();
    await store.hubSubscriptions.activate(
      Array.from({ length: 500 }, (_, k) => ({
        topic: `${BASE}/feed.xml`,
        callback: sub.url(`/fan/${k}`),
        secret: null,
        leaseSeconds: 86_400,
      })),
      now,
    );
    await store.close();
    // Slow answers keep the fan-out in flight long enough to kill a replica in the middle of it.
    sub.handler = (r, res) => setTimeout(() => res.writeHead(204).end(), r.method === 'POST' ? 150 : 0);
    await publish();
    await waitFor(() => sub.posts('/fan/').length >= 30, 'fan-out under way', 15_000);
    const victim = replicas[1];
    victim.child.kill('SIGKILL');
    await waitFor(() => new Set(sub.posts('/fan/').map((p) => p.url)).size === 500, 'all 500 delivered', 60_000);
    assert.ok(
      sub.posts('/fan/').length < 500 + 200,
      `redeliveries limited to what the killed replica had claimed: ${sub.posts('/fan/').length} posts`,
    );
  });
});
