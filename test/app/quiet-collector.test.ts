// After a busy spell the server collects its heap in full once requests stop; never while they come.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { collectsNow, QuietCollector } from '../../src/app/index.js';
import { capturedLog, startTestServer } from '../helpers/index.js';

const MB = 1 << 20;

test('collectsNow: only with no request since the last look, and the heap grown enough above its low point', () => {
  const growth = { growthBytes: 32 * MB, growthShare: 0.25 };
  assert.equal(collectsNow(0, 0, 200 * MB, 100 * MB, growth), true);
  assert.equal(collectsNow(0, 0, 132 * MB, 100 * MB, growth), true);
  assert.equal(collectsNow(0, 0, 131 * MB, 100 * MB, growth), false, 'not grown enough');
  assert.equal(collectsNow(0, 0, 1600 * MB, 1300 * MB, growth), false, 'a large heap grows by a quarter first');
  assert.equal(collectsNow(0, 0, 1625 * MB, 1300 * MB, growth), true);
  assert.equal(collectsNow(1, 0, 900 * MB, 100 * MB, growth), false, 'a request came');
  assert.equal(collectsNow(0, 1, 900 * MB, 100 * MB, growth), false, 'one is being answered');
  assert.equal(collectsNow(0, 0, 90 * MB, 100 * MB, { growthBytes: 0, growthShare: 0 }), false, 'below its low point');
});

test('a QuietCollector on a real server: a look after requests waits; the next quiet one collects, and says so', async () => {
  const server = createServer((_req, res) => res.end(Buffer.alloc(64 * 1024, 'x')));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // The timer never fires here: the test takes each look itself.
  const { log, lines } = capturedLog();
  const eager = new QuietCollector(log, { checkMs: 3_600_000, growthBytes: 0, growthShare: 0 });
  const never = new QuietCollector(log, { checkMs: 3_600_000, growthBytes: 2 ** 50, growthShare: 0 });
  eager.start(server);
  never.start(server);
  try {
    for (let i = 0; i < 20; i++) await (await fetch(url)).arrayBuffer();
    eager.look();
    never.look();
    assert.equal(eager.collections, 0, 'requests came since the start: not quiet');
    eager.look();
    never.look();
    assert.equal(eager.collections, 1, 'quiet since the last look');
    assert.equal(never.collections, 0, 'the heap did not grow by a petabyte');
    const said = lines.filter((l) => l.msg === 'heap collected after a busy spell');
    assert.equal(said.length, 1);
    assert.equal(typeof said[0].heap_before_mb, 'number');
    assert.equal(typeof said[0].ms, 'number');
    assert.match(eager.metricsText(), /^reviewcast_quiet_collections_total 1$/m);
    await (await fetch(url)).arrayBuffer();
    eager.look();
    assert.equal(eager.collections, 1, 'a request came again');
  } finally {
    eager.stop();
    never.stop();
    server.close();
  }
});

test('expectGarbage: the next quiet look collects however little the heap grew, and only that one', async () => {
  const server = createServer((_req, res) => res.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const { log, lines } = capturedLog();
  const collector = new QuietCollector(log, { checkMs: 3_600_000, growthBytes: 2 ** 50, growthShare: 0 });
  collector.start(server);
  try {
    collector.look();
    assert.equal(collector.collections, 0, 'the heap did not grow by a petabyte');
    collector.expectGarbage('the idle corpus thread exited');
    await (await fetch(url)).arrayBuffer();
    collector.look();
    assert.equal(collector.collections, 0, 'a request came: not quiet');
    // The server hears the response close a moment after the client has it: looks until it does (bounded).
    for (let i = 0; i < 200 && collector.collections === 0; i++) {
      await new Promise((r) => setImmediate(r));
      collector.look();
    }
    assert.equal(collector.collections, 1, 'quiet, and garbage expected');
    assert.equal(lines.at(-1)?.reason, 'the idle corpus thread exited', 'logged with what it followed');
    collector.look();
    assert.equal(collector.collections, 1, 'once');
  } finally {
    collector.stop();
    server.close();
  }
});

test('a QuietCollector waits while a response is still being sent (a long download), and collects once it ends', async () => {
  let release: () => void = () => undefined;
  const server = createServer((_req, res) => {
    res.write('first part');
    release = () => res.end('last part');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { log } = capturedLog();
  const collector = new QuietCollector(log, { checkMs: 3_600_000, growthBytes: 0, growthShare: 0 });
  collector.start(server);
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    collector.look();
    collector.look();
    collector.look();
    assert.equal(collector.collections, 0, 'a response is still open');
    release();
    assert.equal(await res.text(), 'first partlast part');
    // The server hears the response close a moment after the client has it: looks until it does (bounded).
    for (let i = 0; i < 200 && collector.collections === 0; i++) {
      await new Promise((r) => setImmediate(r));
      collector.look();
    }
    assert.equal(collector.collections, 1);
  } finally {
    collector.stop();
    server.close();
  }
});

test('a real server collects after a burst of searches, logs it and counts it in /metrics', async (t) => {
  const { log, lines } = capturedLog();
  const running = await startTestServer({}, { logger: log, quietCollection: { checkMs: 50, growthBytes: 0, growthShare: 0 } });
  t.after(() => running.close());
  for (let i = 0; i < 50; i++) await (await fetch(`${running.url}/api/reviews/search?query=leak&limit=${1 + i}`)).arrayBuffer();
  const from = lines.length;
  // Waits (sending nothing) until a look finds the server quiet; how soon depends on the machine, so the
  // bound is generous (a minute), only so that a server that never collects fails instead of hanging.
  const collected = () => lines.slice(from).some((l) => l.msg === 'heap collected after a busy spell');
  for (let waits = 0; waits < 3000 && !collected(); waits++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(collected(), 'no collection was logged after the burst');
  const metrics = await (await fetch(`${running.url}/metrics`)).text();
  const count = Number(metrics.match(/^reviewcast_quiet_collections_total (\d+)$/m)?.[1]);
  assert.ok(count >= 1, metrics);
});

test('a real server collects once a revision is stored, however little its heap grew', async (t) => {
  const { log, lines } = capturedLog();
  // Growth never reaches the bar: a collection logged here is the one a stored revision asks for.
  const running = await startTestServer({}, { logger: log, quietCollection: { checkMs: 50, growthBytes: 2 ** 50, growthShare: 0 } });
  t.after(() => running.close());
  const said = (msg: string) => lines.findIndex((l) => l.msg === msg);
  // The demo's first revision is built and then stored; bounded generously, so a server that never
  // collects fails instead of hanging.
  for (let waits = 0; waits < 3000 && said('heap collected after a busy spell') < 0; waits++) await new Promise((r) => setTimeout(r, 20));
  const stored = said('catalog snapshot stored');
  assert.ok(stored >= 0, 'the revision was stored');
  const collected = said('heap collected after a busy spell');
  assert.ok(collected > stored, 'collected after it was stored');
  assert.equal(lines[collected].reason, 'a revision was stored');
});
