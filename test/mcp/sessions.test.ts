import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVICTABLE_AFTER_MS, InMemorySessionStore, type SessionStore } from '../../src/mcp/index.js';

/** A store on a hand-driven clock. */
function store(limits: { ttlMs: number; maxSessions: number }) {
  let now = 1_000;
  const s = new InMemorySessionStore(limits, () => now);
  return { s, advance: (ms: number) => (now += ms) };
}

/** A session that must be created. */
async function create(s: SessionStore, version: string) {
  const session = await s.create(version);
  assert.ok(session, 'created');
  return session;
}

test('a session lives while used and expires after the idle TTL', async () => {
  const { s, advance } = store({ ttlMs: 100, maxSessions: 10 });
  const a = await create(s, '2025-11-25');
  advance(90);
  assert.ok(await s.touch(a.id));
  advance(90);
  assert.ok(await s.touch(a.id), 'touching restarted the idle clock');
  advance(100);
  assert.equal(await s.touch(a.id), null);
  assert.equal(s.size, 0, 'the expired session is gone from memory, not just hidden');
});

test('creating past the cap evicts the longest idle session once it has been idle a minute', async () => {
  const { s, advance } = store({ ttlMs: 10 * EVICTABLE_AFTER_MS, maxSessions: 2 });
  const a = await create(s, '2025-11-25');
  advance(1);
  const b = await create(s, '2025-11-25');
  advance(EVICTABLE_AFTER_MS);
  await s.touch(a.id);
  const c = await create(s, '2025-11-25');
  assert.equal(s.size, 2);
  assert.equal(await s.touch(b.id), null);
  assert.ok(await s.touch(a.id));
  assert.ok(await s.touch(c.id));
});

test('a session active within the last minute is never evicted: the new one is refused instead', async () => {
  const { s, advance } = store({ ttlMs: 10 * EVICTABLE_AFTER_MS, maxSessions: 2 });
  const a = await create(s, '2025-11-25');
  const b = await create(s, '2025-11-25');
  advance(EVICTABLE_AFTER_MS - 1);
  assert.equal(await s.create('2025-11-25'), null);
  assert.ok(await s.touch(a.id));
  assert.equal(s.size, 2);
  advance(1);
  // b has now been idle a full minute; a was just used.
  assert.ok(await s.create('2025-11-25'));
  assert.equal(await s.touch(b.id), null);
  assert.ok(await s.touch(a.id));
});

test('expired sessions are swept before anything is evicted', async () => {
  const { s, advance } = store({ ttlMs: 50, maxSessions: 3 });
  for (let i = 0; i < 3; i++) await create(s, '2025-06-18');
  advance(60);
  const fresh = await create(s, '2025-06-18');
  assert.equal(s.size, 1);
  assert.ok(await s.touch(fresh.id));
});

test('delete ends a session once', async () => {
  const { s } = store({ ttlMs: 50, maxSessions: 3 });
  const a = await create(s, '2025-03-26');
  assert.equal(await s.delete(a.id), true);
  assert.equal(await s.delete(a.id), false);
  assert.equal(await s.touch(a.id), null);
});

test('ids are unique, long and visible ASCII', async () => {
  const { s } = store({ ttlMs: 1000, maxSessions: 1000 });
  const ids = new Set<string>();
  for (let i = 0; i < 500; i++) ids.add((await create(s, '2025-11-25')).id);
  assert.equal(ids.size, 500);
  for (const id of ids) assert.match(id, /^[\x21-\x7e]{43}$/);
});
