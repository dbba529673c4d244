import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { generateDemoReviews } from '../../src/demo/index.js';
import { CLI, tempDir } from '../helpers/index.js';

const demo = (args: string[], node: string[] = []) => spawnSync(process.execPath, [...node, CLI, 'demo', ...args], { encoding: 'utf8' });
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

test('the streamed demo file is byte for byte what the one-string generator wrote (2,000 reviews, NDJSON and JSON)', () => {
  const dir = tempDir();
  const ndjson = join(dir, 'd.ndjson');
  const json = join(dir, 'd.json');
  for (const out of [ndjson, json]) assert.equal(demo(['--reviews', '2000', '--out', out]).status, 0);
  // How the file was built before it was streamed: the whole history as one string.
  const reviews = generateDemoReviews({ reviews: 2000 });
  assert.equal(readFileSync(ndjson, 'utf8'), `${reviews.map((r) => JSON.stringify(r)).join('\n')}\n`);
  assert.equal(readFileSync(json, 'utf8'), JSON.stringify(reviews));
  // Pinned digests of the files 0.2.0's one-string generator wrote, so a change of the generator itself shows too.
  assert.equal(sha256(ndjson), '46e5f6f39c8e519a6b20345172aba57c864eef7649bcc0a3c068d86cf6930b71');
  assert.equal(sha256(json), 'dac614e6c82ceb9e0ba98bb6ab48bf22633859646ad7122fa7ebbfafd99e8be5');
});

test('edge sizes keep the same bytes: no reviews, one review, another seed', () => {
  const dir = tempDir();
  for (const [n, seed] of [
    [0, 20240601],
    [1, 20240601],
    [3, 99],
  ]) {
    const reviews = generateDemoReviews({ reviews: n, seed });
    const ndjson = join(dir, `${n}.ndjson`);
    const json = join(dir, `${n}.json`);
    for (const out of [ndjson, json]) assert.equal(demo(['--reviews', String(n), '--seed', String(seed), '--out', out]).status, 0);
    assert.equal(readFileSync(ndjson, 'utf8'), `${reviews.map((r) => JSON.stringify(r)).join('\n')}\n`);
    assert.equal(readFileSync(json, 'utf8'), JSON.stringify(reviews));
  }
});

test('a large demo file streams within a heap far smaller than the file (60,000 reviews, 24 MB old space)', async () => {
  const dir = tempDir();
  const out = join(dir, 'big.ndjson');
  // The file is about 35 MB and its records as objects several times that: only a streamed write fits in 24 MB.
  const r = demo(['--reviews', '60000', '--out', out], ['--max-old-space-size=24']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /wrote 60000 demo reviews/);
  let lines = 0;
  let last = '';
  for await (const line of createInterface({ input: createReadStream(out) })) {
    if (lines % 997 === 0) assert.equal(typeof JSON.parse(line).source_review_id, 'string');
    last = line;
    lines++;
  }
  assert.equal(lines, 60000);
  assert.equal(JSON.parse(last).rating >= 1, true);
  assert.ok(readFileSync(out).length > 24 * 1024 * 1024, 'the file is larger than the heap it was written in');
});

test('a --reviews that is not a whole number is refused with a clear error and no file', () => {
  const dir = tempDir();
  const r = demo(['--reviews', 'many', '--out', join(dir, 'x.json')]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /--reviews must be a whole number/);
});

test('reviewcast demo writes a deterministic set', () => {
  const dir = tempDir();
  const a = join(dir, 'a.ndjson');
  const b = join(dir, 'b.ndjson');
  assert.equal(demo(['--reviews', '300', '--out', a]).status, 0);
  assert.equal(demo(['--reviews', '300', '--out', b]).status, 0);
  assert.equal(readFileSync(a, 'utf8').trim().split('\n').length, 300);
  assert.equal(readFileSync(a, 'utf8'), readFileSync(b, 'utf8'));
});
