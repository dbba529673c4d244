import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemorySessionStore } from '../../src/mcp/index.js';

/** A store on a hand-driven clock. */
function store(limits: { ttlMs: number; maxSessions: number }) {
  let now = 1_000;
  const s = new InMemorySessionStore(limits, () => now);
  return { s, advance: (ms: number) => (now += ms) };
}

test('a session lives while used and expires after the idle TTL', async () => {
  const { s, advance } = store({ ttlMs: 100, maxSessions: 10 });
  const a = await s.create('2025-11-25');
  advance(90);
  assert.ok(await s.touch(a.id));
  advance(90);
  assert.ok(await s.touch(a.id), 'touching restarted the idle clock');
  advance(100);
  assert.equal(await s.touch(a.id), null);
  assert.equal(s.size, 0, 'the expired session is gone from memory, not just hidden');
});

test('creating past the cap evicts the longest idle session', async () => {
  const { s, advance } = store({ ttlMs: 10_000, maxSessions: 2 });
  const a = await s.create('2025-11-25');
  advance(1);
  const b = await s.create('2025-11-25');
  advance(1);
  await s.touch(a.id);
  const c = await s.create('2025-11-25');
  assert.equal(s.size, 2);
  assert.equal(await s.touch(b.id), null);
  assert.ok(await s.touch(a.id));
  assert.ok(await s.touch(c.id));
});

test('expired sessions are swept before anything is evicted', async () => {
  const { s, advance } = store({ ttlMs: 50, maxSessions: 3 });
  for (let i = 0; i < 3; i++) await s.create('2025-06-18');
  advance(60);
  const fresh = await s.create('2025-06-18');
  assert.equal(s.size, 1);
  assert.ok(await s.touch(fresh.id));
});

test('delete ends a session once', async () => {
  const { s } = store({ ttlMs: 50, maxSessions: 3 });
  const a = await s.create('2025-03-26');
  assert.equal(await s.delete(a.id), true);
  assert.equal(await s.delete(a.id), false);
  assert.equal(await s.touch(a.id), null);
});

test('ids are unique, long and visible ASCII', async () => {
  const { s } = store({ ttlMs: 1000, maxSessions: 1000 });
  const ids = new Set<string>();
  for (let i = 0; i < 500; i++) ids.add((await s.create('2025-11-25')).id);
  assert.equal(ids.size, 500);
  for (const id of ids) assert.match(id, /^[\x21-\x7e]{43}$/);
});
