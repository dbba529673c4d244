import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MMAP_THRESHOLD, MMAP_THRESHOLD_VARIABLE, restartEnv, runsOnGlibc } from '../../src/cli/index.js';
import { spawnServe, tempDir } from '../helpers/index.js';

const linux = { platform: 'linux' as const, env: { PATH: '/usr/bin' }, canExecve: true, attached: false, glibc: () => true };

test('serve starts again with the mmap threshold fixed only on Linux with glibc, a Node that can, nothing attached and no value set', () => {
  assert.deepEqual(restartEnv(linux), { PATH: '/usr/bin', [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD });
  assert.equal(restartEnv({ ...linux, env: { [MMAP_THRESHOLD_VARIABLE]: '262144' } }), null, "the operator's value wins");
  assert.equal(restartEnv({ ...linux, env: { [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD } }), null, 'the restarted process goes on');
  assert.equal(restartEnv({ ...linux, canExecve: false }), null, 'before Node 22.15 there is no process.execve');
  assert.equal(restartEnv({ ...linux, attached: true }), null, 'an IPC channel, a cluster worker or a debugger would be lost');
  assert.equal(restartEnv({ ...linux, glibc: () => false }), null, 'musl ignores the variable');
  assert.equal(restartEnv({ ...linux, platform: 'darwin' }), null);
  let asked = 0;
  restartEnv({ ...linux, env: { [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD }, glibc: () => ++asked > 0 });
  assert.equal(asked, 0, 'the C library is asked last (a report): not in the restarted process');
});

/** The environment of a running process, as the kernel has it (what its C library read at start). */
const environOf = (pid: number) =>
  new Map(
    readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

const canExecve = typeof (process as { execve?: unknown }).execve === 'function';

test('`reviewcast serve` runs with the threshold in its environment where it can, in the same process, and keeps a value given', {
  skip: process.platform === 'linux' && runsOnGlibc() ? false : 'Linux with glibc only',
}, async () => {
  const dir = tempDir();
  for (const [given, expected] of [
    [undefined, canExecve ? MMAP_THRESHOLD : undefined],
    ['262144', '262144'],
  ] as const) {
    // spawn leaves out a variable whose value is undefined (this runner's own, if any).
    const env = { [MMAP_THRESHOLD_VARIABLE]: given, REVIEWCAST_DEMO_IF_EMPTY: '0' };
    const server = await spawnServe(['--port', '0', '--database-url', join(dir, `m${given ?? ''}.db`)], env);
    try {
      // spawnServe's child is the process that listens: a replaced process keeps its pid.
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      assert.equal(environOf(server.child.pid!).get(MMAP_THRESHOLD_VARIABLE), expected);
      assert.equal(environOf(server.child.pid!).get('REVIEWCAST_DEMO_IF_EMPTY'), '0', 'the rest of the environment is kept');
    } finally {
      await server.stop();
    }
  }
});
