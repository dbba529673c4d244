import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { Store } from '../../src/store/index.js';
import { startTestServer } from '../helpers/index.js';

let server: RunningServer | undefined;
after(() => server?.close());

/** Each thread of this process (the server runs in it) by id, with its nice value. */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

test('a build runs with every thread but the event loop’s below its priority', {
  skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only',
}, async () => {
  const normalAtStart = [...niceByThread()].filter(([tid, nice]) => tid !== process.pid && nice < 10).length;
  assert.ok(normalAtStart >= 1, 'V8’s platform threads start at normal priority');
  server = await startTestServer();
  const revision = server.catalog.get().revision;
  // Threads made since the first build (libuv's pool starts on first use) are lowered at the next one;
  // a worker starting meanwhile lowers itself once its code runs, so only the threads alive now count.
  const alive = new Set(niceByThread().keys());
  const store = await Store.open(server.config.databaseUrl);
  try {
    await store.setBusiness({ ...(await store.getBusiness())!, name: 'Priority Check Plumbing' }, new Date().toISOString());
  } finally {
    await store.close();
  }
  while (server.catalog.get().revision === revision) await new Promise((r) => setTimeout(r, 20));
  const nice = niceByThread();
  const normal = [...nice].filter(([tid, n]) => alive.has(tid) && tid !== process.pid && n < 10).map(([tid]) => tid);
  assert.deepEqual(normal, [], 'no helper thread left at the event loop’s priority');
  assert.equal(nice.get(process.pid), 0, 'the event loop’s thread keeps normal priority');
});
