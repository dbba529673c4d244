import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, niceByThread, tempDir } from '../helpers/index.js';

// An import on the server's machine is batch work: the server's event loop (and the V8 threads its
// garbage collection waits for) should get a core before any of the import's threads.
test('`reviewcast import` runs every one of its threads below normal priority', {
  skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only',
}, async () => {
  const dir = tempDir();
  const file = join(dir, 'demo.ndjson');
  const business = join(dir, 'business.json');
  const db = join(dir, 'r.db');
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args]).status;
  assert.equal(cli('demo', '--reviews', '1500', '--out', file, '--business-out', business), 0);
  assert.equal(cli('business', 'set', business, '--database-url', db), 0);
  const child = spawn(process.execPath, [CLI, 'import', file, '--database-url', db], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let done = false;
  void exited.then(() => (done = true));
  const samples: number[][] = [];
  while (!done) {
    const n = [...niceByThread(child.pid!).values()];
    if (n.length > 0) samples.push(n);
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.equal(await exited, 0, 'the import succeeded');
  const lowered = samples.filter((n) => n.every((v) => v >= 10));
  assert.ok(lowered.length > 0, `a moment with every thread at nice 10 or more (${samples.length} samples)`);
  // The analysis threads start after the lowering and inherit it: the busiest samples are all lowered.
  const widest = Math.max(...samples.map((n) => n.length));
  assert.ok(
    lowered.some((n) => n.length === widest),
    'including while the analysis threads run',
  );
});
