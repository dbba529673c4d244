import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { clampLease, HubConfigSchema, hubConfigFrom, retryDelayMs } from '../../src/websub/index.js';

describe('lease clamp and backoff', () => {
  test('lease clamp', () => {
    const c = { leaseDefaultSeconds: 864_000, leaseMinSeconds: 300, leaseMaxSeconds: 2_592_000 };
    assert.equal(clampLease(undefined, c), 864_000);
    assert.equal(clampLease(0, c), 300);
    assert.equal(clampLease(1e12, c), 2_592_000);
    assert.equal(clampLease(3600, c), 3600);
    assert.throws(() => HubConfigSchema.parse({ leaseMinSeconds: 10, leaseMaxSeconds: 5 }));
    assert.throws(() => HubConfigSchema.parse({ requestTimeoutMs: 30_000 }), 'total timeout is capped at 10 s');
  });
  test('backoff grows by the factor, is capped and jittered ±20 %', () => {
    const c = { retryBaseMs: 1000, retryFactor: 5, retryMaxMs: 20_000 };
    assert.equal(
      retryDelayMs(1, c, () => 0.5),
      1000,
    );
    assert.equal(
      retryDelayMs(2, c, () => 0.5),
      5000,
    );
    assert.equal(
      retryDelayMs(3, c, () => 0.5),
      20_000,
    );
    assert.equal(
      retryDelayMs(1, c, () => 0),
      800,
    );
    assert.equal(
      retryDelayMs(1, c, () => 1),
      1200,
    );
  });
});

describe('hubConfigFrom', () => {
  test('the service configuration sets the per-client limit (burst: a third, at least 1) and the test-only settings', () => {
    const hub = hubConfigFrom(loadConfig({ REVIEWCAST_HUB_REQUESTS_PER_MINUTE: 90, REVIEWCAST_HUB_ALLOW_PRIVATE_CALLBACKS: '1' }, {}));
    assert.deepEqual(hub.rateLimitPerClient, { perMinute: 90, burst: 30 });
    assert.equal(hub.allowPrivateCallbacks, true);
    assert.deepEqual(hubConfigFrom(loadConfig({ REVIEWCAST_HUB_REQUESTS_PER_MINUTE: 1 }, {})).rateLimitPerClient, {
      perMinute: 1,
      burst: 1,
    });
    const defaults = hubConfigFrom(loadConfig({}, {}));
    assert.deepEqual(
      { ...defaults, caFile: undefined },
      { ...HubConfigSchema.parse({}), caFile: undefined },
      'nothing set: the hub defaults',
    );
  });
});
