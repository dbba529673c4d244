import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RateLimiter, Store } from '../../src/store/index.js';
import { freshPgDatabase, PG_SKIP, tempDir } from '../helpers/index.js';

// One behaviour, two homes: SQLite keeps the buckets in the process that owns the file, PostgreSQL in a
// table every replica updates.
const engines = [
  { name: 'SQLite (buckets in memory)', skip: false as const, open: async () => ({ url: join(tempDir(), 'rl.db'), drop: async () => {} }) },
  { name: 'PostgreSQL (buckets in the database)', skip: PG_SKIP, open: () => freshPgDatabase() },
];

describe('rate limiter', () => {
  for (const engine of engines) {
    test(`${engine.name}: burst, then refill over time; keys and scopes are independent`, { skip: engine.skip }, async () => {
      const db = await engine.open();
      const store = await Store.open(db.url);
      try {
        let now = 0;
        const rl = new RateLimiter(store, 'x', 60, 2, () => now);
        assert.equal(await rl.take('a'), 0);
        assert.equal(await rl.take('a'), 0);
        assert.equal(await rl.take('a'), 1);
        assert.equal(await rl.take('b'), 0);
        assert.equal(await new RateLimiter(store, 'y', 60, 2, () => now).take('a'), 0, 'another scope has its own bucket');
        now += 1000;
        assert.equal(await rl.take('a'), 0);
        assert.equal(await rl.take('a'), 1);
        const second = new RateLimiter(store, 'x', 60, 2, () => now);
        assert.equal(await second.take('a'), 1, 'a second limiter on the same store sees the same bucket');
        now += 30_000;
        assert.equal(await new RateLimiter(store, 'x', 6, 3, () => now).take('c'), 0);
      } finally {
        await store.close();
        await db.drop();
      }
    });
  }

  test('PostgreSQL: two stores on one database (two replicas) share a bucket', { skip: PG_SKIP }, async () => {
    const db = await freshPgDatabase();
    const [a, b] = [await Store.open(db.url), await Store.open(db.url)];
    try {
      const now = () => 5_000;
      assert.equal(await new RateLimiter(a, 'x', 60, 1, now).take('k'), 0);
      assert.equal(await new RateLimiter(b, 'x', 60, 1, now).take('k'), 1, 'the other replica sees the spent token');
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
