import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CLI, tempDir } from '../helpers/index.js';

const run = promisify(execFile);

test('reviewcast demo writes a deterministic set', async () => {
  const dir = tempDir();
  const a = join(dir, 'a.ndjson');
  const b = join(dir, 'b.ndjson');
  await run(process.execPath, [CLI, 'demo', '--reviews', '300', '--out', a]);
  await run(process.execPath, [CLI, 'demo', '--reviews', '300', '--out', b]);
  const lines = readFileSync(a, 'utf8').trim().split('\n');
  assert.equal(lines.length, 300);
  assert.equal(readFileSync(a, 'utf8'), readFileSync(b, 'utf8'));
});
