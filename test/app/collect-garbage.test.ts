// The collection a server runs before it serves a loaded revision returns memory nothing holds any more.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectGarbage } from '../../src/app/index.js';

test('collectGarbage frees buffers nothing refers to, and keeps those still held', () => {
  collectGarbage();
  const before = process.memoryUsage().arrayBuffers;
  let dropped: Buffer | null = Buffer.alloc(64 * 1024 * 1024, 1);
  const kept = Buffer.alloc(8 * 1024 * 1024, 2);
  assert.ok(process.memoryUsage().arrayBuffers - before >= 72 * 1024 * 1024);
  dropped = null;
  collectGarbage();
  const after = process.memoryUsage().arrayBuffers - before;
  assert.equal(dropped, null);
  assert.ok(after < 16 * 1024 * 1024, `${after} bytes of buffers left`);
  assert.ok(after >= 8 * 1024 * 1024, 'the held buffer is kept');
  assert.equal(kept[kept.length - 1], 2);
});
