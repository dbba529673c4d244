// The collection a server runs before it serves a loaded revision returns memory nothing holds any more.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { collectGarbage } from '../../src/app/index.js';

const MB = 1024 * 1024;

/**
 * The process's buffer bytes once collections stop lowering them: V8 may release a collected buffer's
 * memory a moment after the collection (on another thread), so a few rounds with the event loop turning
 * in between, never a time. (Read once after one collection, garbage of the modules' loading freed later
 * made a 72 MB allocation look smaller, once in CI.)
 */
async function settledBufferBytes(): Promise<number> {
  let now = process.memoryUsage().arrayBuffers;
  for (let round = 0, last = -1; round < 20 && now !== last; round++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    last = now;
    now = process.memoryUsage().arrayBuffers;
  }
  return now;
}

test('collectGarbage frees buffers nothing refers to, and keeps those still held', async () => {
  const before = await settledBufferBytes();
  let dropped: Buffer | null = Buffer.alloc(64 * MB, 1);
  const kept = Buffer.alloc(8 * MB, 2);
  assert.ok(process.memoryUsage().arrayBuffers - before >= 72 * MB);
  dropped.fill(3);
  dropped = null;
  // As above: a few rounds, never a time.
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

const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

test('on V8 12 (Node 22) and later the collection also gives the young generation its room back', {
  skip: Number(process.versions.v8.split('.')[0]) < 12 && "Node 20's V8 gets a plain collection",
}, () => {
  // Objects that live a while, among many that do not, grow the young generation.
  const held: object[] = [];
  for (let i = 0; i < 2_000_000; i++) {
    const o = { i, s: `x${i}` };
    if (i % 8 === 0) held.push(o);
  }
  const grown = newSpace();
  assert.ok(grown >= 8 * MB, `the young generation grew to ${grown} bytes`);
  collectGarbage();
  assert.ok(newSpace() <= 2 * MB, `${newSpace()} bytes of young generation left`);
  assert.equal(held.length, 250_000);
});
