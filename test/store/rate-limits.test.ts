import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RateLimiter, Store } from '../../src/store/index.js';
import { tempDir } from '../helpers/index.js';

describe('rate limiter', () => {
  test('rate limiter: burst, then refill over time; keys and scopes are independent', async () => {
    const store = await Store.open(join(tempDir(), 'rl.db'));
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
      assert.equal(await second.take('a'), 1, 'a second limiter on the same store (another replica) sees the same bucket');
    } finally {
      await store.close();
    }
  });
});
