// The collection a server runs before it serves a loaded revision returns memory nothing holds any more.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { collectGarbage } from '../../src/app/index.js';

const MB = 1024 * 1024;

test('collectGarbage frees buffers nothing refers to, and keeps those still held', async () => {
  collectGarbage();
  const before = process.memoryUsage().arrayBuffers;
  let dropped: Buffer | null = Buffer.alloc(64 * MB, 1);
  const kept = Buffer.alloc(8 * MB, 2);
  assert.ok(process.memoryUsage().arrayBuffers - before >= 72 * MB);
  dropped.fill(3);
  dropped = null;
  // V8 may release a collected buffer's memory a moment after the collection (on another thread): a few
  // rounds with the event loop turning in between, never a time.
  let left = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 20 && left >= 16 * MB; round++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    left = process.memoryUsage().arrayBuffers - before;
  }
  assert.ok(left < 16 * MB, `${left} bytes of buffers left`);
  assert.ok(left >= 8 * MB, 'the held buffer is kept');
  assert.equal(kept[kept.length - 1], 2);
  assert.equal(runInNewContext('typeof gc'), 'undefined', 'later contexts get no global gc');
});
