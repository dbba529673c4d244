import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { EVICTABLE_AFTER_MS, type SessionStore, StoreSessionStore } from '../../src/mcp/index.js';
import { Store } from '../../src/store/index.js';
import { freshPgDatabase, PG_SKIP, tempDir } from '../helpers/index.js';

/** A session that must be created. */
async function create(s: SessionStore, version: string) {
  const session = await s.create(version);
  assert.ok(session, 'created');
  return session;
}

function suite(engine: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>, skip: string | false = false) {
  describe(`MCP sessions in the store (${engine})`, { skip }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    // A fresh database per test: no test depends on what another left.
    beforeEach(async () => ({ store, cleanup } = await open()));
    afterEach(async () => {
      await store?.close();
      await cleanup?.();
    });

    test('a session created by one replica is live on another; idle expiry and delete hold for both', async () => {
      let now = 1_000_000;
      const a = new StoreSessionStore(store, { ttlMs: 60_000, maxSessions: 10 }, () => now);
      const b = new StoreSessionStore(store, { ttlMs: 60_000, maxSessions: 10 }, () => now);
      const s = await create(a, '2025-06-18');
      assert.match(s.id, /^[A-Za-z0-9_-]{43}$/);
      now += 59_000;
      assert.equal((await b.touch(s.id))?.protocolVersion, '2025-06-18', 'accepted by the other replica');
      now += 59_000;
      assert.ok(await a.touch(s.id), 'touch restarted the idle clock');
      now += 60_001;
      assert.equal(await b.touch(s.id), null, 'expired after the idle TTL');
      const s2 = await create(b, '2025-11-25');
      assert.equal(await a.delete(s2.id), true);
      assert.equal(await b.touch(s2.id), null, 'deleted everywhere');
      assert.equal(await a.delete(s2.id), false);
    });

    test('the cap evicts the longest idle session, never one active within the last minute', async () => {
      let now = 5_000_000;
      const a = new StoreSessionStore(store, { ttlMs: 600_000, maxSessions: 3 }, () => now);
      const ids = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await create(a, '2025-06-18')).id);
        now += 1000;
      }
      assert.equal(await a.create('2025-06-18'), null, 'all three were active within the minute');
      now += EVICTABLE_AFTER_MS;
      await a.touch(ids[0]);
      const fourth = await create(a, '2025-06-18');
      assert.ok(await a.touch(ids[0]), 'recently used survives');
      assert.equal(await a.touch(ids[1]), null, 'longest idle evicted');
      assert.ok(await a.touch(fourth.id));
      assert.equal(await store.mcpSessions.count(), 3);
    });
  });
}

suite('sqlite', async () => ({ store: await Store.open(join(tempDir(), 's.db')), cleanup: async () => {} }));
suite(
  'postgres',
  async () => {
    const db = await freshPgDatabase();
    return { store: await Store.open(db.url), cleanup: db.drop };
  },
  PG_SKIP,
);
