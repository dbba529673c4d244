import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MMAP_THRESHOLD, MMAP_THRESHOLD_VARIABLE, nodeAccepts, restartWith, runsOnGlibc, THREAD_PAGES_FLAG } from '../../src/cli/index.js';
import { SNAPSHOT_PART_BYTES } from '../../src/store/index.js';
import { spawnServe, tempDir } from '../helpers/index.js';

const linux = {
  platform: 'linux' as const,
  env: { PATH: '/usr/bin' },
  execArgv: ['--enable-source-maps'],
  v8: '14.6.202.34-node.40',
  canExecve: true,
  attached: false,
  glibc: () => true,
  accepts: (flag: string) => flag === THREAD_PAGES_FLAG,
};
const v8Before14 = { ...linux, v8: '13.6.233.17-node.63' };
const restarted = { ...linux, env: { [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD }, execArgv: ['--enable-source-maps', THREAD_PAGES_FLAG] };

test('serve starts again with the mmap threshold on Linux with glibc unless set, and the thread pages flag on V8 14 and later unless given; only with a Node that can and nothing attached', () => {
  assert.deepEqual(restartWith(linux), {
    env: { PATH: '/usr/bin', [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD },
    execArgv: ['--enable-source-maps', THREAD_PAGES_FLAG],
  });
  assert.deepEqual(restartWith(v8Before14), {
    env: { PATH: '/usr/bin', [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD },
    execArgv: ['--enable-source-maps'],
  });
  assert.equal(restartWith(restarted), null, 'the restarted process goes on');
  assert.deepEqual(
    restartWith({ ...linux, env: { [MMAP_THRESHOLD_VARIABLE]: '262144' } }),
    { env: { [MMAP_THRESHOLD_VARIABLE]: '262144' }, execArgv: ['--enable-source-maps', THREAD_PAGES_FLAG] },
    "the operator's value wins; the flag is still added",
  );
  assert.equal(restartWith({ ...v8Before14, env: { [MMAP_THRESHOLD_VARIABLE]: '262144' } }), null, 'nothing to change');
  assert.equal(restartWith({ ...linux, canExecve: false }), null, 'before Node 22.15 there is no process.execve');
  assert.equal(restartWith({ ...linux, attached: true }), null, 'an IPC channel, a cluster worker or a debugger would be lost');
  assert.equal(restartWith({ ...v8Before14, glibc: () => false }), null, 'musl ignores the variable');
  assert.deepEqual(
    restartWith({ ...linux, platform: 'darwin' }),
    { env: linux.env, execArgv: ['--enable-source-maps', THREAD_PAGES_FLAG] },
    "the flag is V8's, on any system",
  );
  for (const given of [THREAD_PAGES_FLAG, '--memory-pool-share-memory-on-teardown', '--no_memory_pool_share_memory_on_teardown'])
    assert.deepEqual(
      restartWith({ ...linux, execArgv: [given] }),
      { env: { PATH: '/usr/bin', [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD }, execArgv: [given] },
      `${given}: the flag given either way is kept, not added again`,
    );
  const v8After14 = { ...linux, v8: '15.0.1-node.1' };
  assert.deepEqual(
    restartWith({ ...v8After14, accepts: () => false }),
    { env: { PATH: '/usr/bin', [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD }, execArgv: ['--enable-source-maps'] },
    'a later V8 without the flag: a replaced process would not start',
  );
  assert.deepEqual(restartWith({ ...v8After14, accepts: () => true }), restartWith(linux), 'a later V8 with it');
  let asked = 0;
  assert.deepEqual(restartWith({ ...linux, accepts: () => ++asked > 0 }), restartWith(linux));
  assert.equal(asked, 0, 'V8 14 is not asked: every Node on it accepts the flag');
  restartWith({ ...restarted, glibc: () => ++asked > 0, accepts: () => ++asked > 0 });
  assert.equal(asked, 0, 'the C library and Node are asked last (a report, a process): not in the restarted process');
  restartWith({ ...v8Before14, accepts: () => ++asked > 0 });
  assert.equal(asked, 0, 'nor is Node asked before V8 14');
});

test("a stored snapshot's part is smaller than the mmap threshold serve sets (read back, it comes from malloc's heap, not a mapping of its own)", () => {
  // glibc maps a request of at least the threshold apart; a chunk's header and alignment add up to a few words.
  assert.ok(SNAPSHOT_PART_BYTES + 64 < Number(MMAP_THRESHOLD), `${SNAPSHOT_PART_BYTES} against ${MMAP_THRESHOLD}`);
  // Not so small that a snapshot at 1M reviews (its layout over 1 GB) is thousands of reads more.
  assert.ok(SNAPSHOT_PART_BYTES >= Number(MMAP_THRESHOLD) / 2);
});

test('nodeAccepts starts this Node with the flag: a known one passes, an unknown one does not', () => {
  assert.equal(nodeAccepts('--expose-gc'), true);
  assert.equal(nodeAccepts('--no-such-flag-of-reviewcast'), false);
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

/** The command line of a running process, as the kernel has it. */
const commandLineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

test('`reviewcast serve` runs with the threshold in its environment and, on V8 14 and later, the thread pages flag, where it can, in the same process, and keeps a value given', {
  skip: process.platform === 'linux' && runsOnGlibc() ? false : 'Linux with glibc only',
}, async () => {
  const dir = tempDir();
  const flagged = canExecve && Number(process.versions.v8.split('.')[0]) >= 14;
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
      assert.equal(commandLineOf(server.child.pid!).includes(THREAD_PAGES_FLAG), flagged, `Node ${process.version}`);
    } finally {
      await server.stop();
    }
  }
});
