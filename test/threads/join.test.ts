import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Representation } from '../../src/catalog/index.js';
import { drainSteps, everyPosition, joinSteps, TOUCH_STEP, zeroedSteps } from '../../src/threads/index.js';

test('joinSteps joins parts byte for byte, pausing once per TOUCH_STEP bytes of each part', () => {
  const parts = [randomBytes(3), randomBytes(TOUCH_STEP * 2 + 5), Buffer.alloc(0), randomBytes(TOUCH_STEP)];
  const steps = joinSteps(parts);
  let pauses = 0;
  let r = steps.next();
  for (; !r.done; r = steps.next()) pauses++;
  assert.deepEqual(r.value, Buffer.concat(parts));
  // 1 + 3 + 0 + 1 pieces: no piece longer than TOUCH_STEP is written between two pauses.
  assert.equal(pauses, 5);
});

test('joinSteps writes into the memory its allocator gives (shared memory for a thread)', () => {
  const steps = joinSteps([Buffer.from('ab'), Buffer.from('cd')], (n) => Buffer.from(new SharedArrayBuffer(n)));
  let r = steps.next();
  while (!r.done) r = steps.next();
  assert.ok(r.value.buffer instanceof SharedArrayBuffer);
  assert.equal(r.value.toString(), 'abcd');
});

test("a large body's gzip coding, joined in slices, is the same bytes as zlib makes in one call", async () => {
  // Several MB of compressible JSON-like text: its coding comes back from zlib in many chunks.
  const words = Array.from({ length: 400_000 }, (_, i) => `{"id":"r${i}","rating":${(i * 7) % 5}}`);
  const body = Buffer.from(`[${words.join(',')}]`);
  const rep = new Representation('application/json', body, new Date(0).toISOString());
  const coded = await rep.encoded('gzip');
  assert.equal(coded.length, 1, 'joined');
  const [gz] = coded;
  assert.ok(gz.length > 1 << 16, 'more than one zlib chunk');
  assert.deepEqual(gz, gzipSync(body, { level: 6 }));
  assert.deepEqual(gunzipSync(gz), body);
  assert.equal(await rep.encoded('gzip'), coded, 'made once and kept');
});

test('zeroedSteps writes every element of the new array to zero, pausing once per TOUCH_STEP bytes', () => {
  const n = (TOUCH_STEP / 4) * 3 + 5;
  // An allocator whose memory is not zero shows that every element is written, not only allocated.
  const steps = zeroedSteps((k) => new Int32Array(k).fill(7), n);
  let pauses = 0;
  let r = steps.next();
  for (; !r.done; r = steps.next()) pauses++;
  assert.equal(pauses, 4);
  assert.equal(r.value.length, n);
  assert.ok(r.value.every((v) => v === 0));
});

test('everyPosition counts 0 … n − 1, pausing once per TOUCH_STEP bytes written', () => {
  const n = (TOUCH_STEP / 4) * 2 + 3;
  const steps = everyPosition(n);
  let pauses = 0;
  let r = steps.next();
  for (; !r.done; r = steps.next()) pauses++;
  assert.equal(pauses, 2);
  assert.deepEqual([r.value.length, r.value[0], r.value[n - 1]], [n, 0, n - 1]);
  assert.ok(r.value.every((v, i) => v === i));
});

test('drainSteps joins parts handed over, emptying each entry as it copies it', () => {
  const parts = [randomBytes(3), randomBytes(TOUCH_STEP + 5), randomBytes(7)];
  const whole = Buffer.concat(parts);
  const steps = drainSteps(parts);
  // The first step copies the first part: it is let go, the others are still there.
  steps.next();
  assert.deepEqual(
    parts.map((p) => p.length),
    [0, TOUCH_STEP + 5, 7],
  );
  let r = steps.next();
  while (!r.done) r = steps.next();
  assert.deepEqual(r.value, whole);
  assert.deepEqual(
    parts.map((p) => p.length),
    [0, 0, 0],
  );
});
