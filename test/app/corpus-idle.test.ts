import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AUTO_IDLE, corpusIdleWait } from '../../src/app/index.js';
import { loadConfig } from '../../src/config.js';

test('an auto idle wait is ten times the last take-over, within its bounds; a fixed one is itself', () => {
  assert.equal(corpusIdleWait('auto', 700), 7_000, 'a take-over of 0.7 s (about 100k reviews)');
  assert.equal(corpusIdleWait('auto', 6_000), 60_000, 'one of 6 s (about 1M reviews)');
  assert.equal(corpusIdleWait('auto', 40), AUTO_IDLE.minMs, 'a small corpus still keeps its thread through a burst of writes');
  assert.equal(corpusIdleWait('auto', 3_600_000), AUTO_IDLE.maxMs);
  assert.equal(corpusIdleWait('auto', null), AUTO_IDLE.untimedMs, 'no take-over timed yet');
  assert.equal(corpusIdleWait(90_000, 40), 90_000, "the operator's wait whatever the take-overs took");
});

test('REVIEWCAST_CORPUS_IDLE is auto unless set to a duration; anything else is a readable error', () => {
  assert.equal(loadConfig({}, {}).corpusIdle, 'auto');
  assert.equal(loadConfig({}, { REVIEWCAST_CORPUS_IDLE: 'auto' }).corpusIdle, 'auto');
  assert.equal(loadConfig({}, { REVIEWCAST_CORPUS_IDLE: '90s' }).corpusIdle, 90_000);
  assert.equal(loadConfig({}, { REVIEWCAST_CORPUS_IDLE: '2' }).corpusIdle, 2_000);
  for (const value of ['soon', '0.5', 'auto5'])
    assert.throws(
      () => loadConfig({}, { REVIEWCAST_CORPUS_IDLE: value }),
      /REVIEWCAST_CORPUS_IDLE: expected auto or a duration of at least 1 s/,
      value,
    );
  assert.throws(
    () => loadConfig({}, { REVIEWCAST_SHUTDOWN_GRACE: 'auto' }),
    /REVIEWCAST_SHUTDOWN_GRACE: expected a duration of at least 1 s/,
  );
});
