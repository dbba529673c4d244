import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CorpusWorker } from '../../src/catalog/index.js';
import { engine } from '../../src/insights/index.js';
import { lowerHelperThreads } from '../../src/threads/index.js';

/** Each thread of this process by id, with its nice value (field 19 of its stat line). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return out;
}

// On two cores a build's threads (the corpus model here) compete with the event loop that answers
// requests; below its priority they take the cores it leaves, so a request never waits for them.
test('the corpus thread runs below the event loop’s priority', {
  skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only',
}, async () => {
  const before = niceByThread();
  const worker = new CorpusWorker(engine);
  try {
    let lowered: number[] = [];
    for (let i = 0; i < 400 && lowered.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      lowered = [...niceByThread()].filter(([tid, nice]) => !before.has(tid) && nice > 0).map(([tid]) => tid);
    }
    assert.equal(lowered.length, 1, 'one new thread, the corpus thread, lowered its own priority');
    assert.equal(niceByThread().get(process.pid), before.get(process.pid), 'the event loop’s thread kept its priority');
  } finally {
    await worker.close();
  }
});

// V8's platform threads (garbage collection for every isolate) and libuv's pool start at the event
// loop's priority; left there, they take the cores a build leaves and the event loop waits for one.
test('the main thread lowers every other thread of the process, and only them', {
  skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only',
}, () => {
  const before = niceByThread();
  const atNormal = [...before].filter(([tid, nice]) => tid !== process.pid && nice < 10).map(([tid]) => tid);
  assert.ok(atNormal.length >= 1, 'the process starts helper threads (V8’s platform) at normal priority');
  assert.equal(lowerHelperThreads(), atNormal.length, 'each of them lowered once');
  const after = niceByThread();
  for (const tid of atNormal) if (after.has(tid)) assert.equal(after.get(tid), 10, `thread ${tid} at nice 10`);
  assert.equal(after.get(process.pid), before.get(process.pid), 'the event loop’s thread kept its priority');
  assert.equal(lowerHelperThreads(), 0, 'a second call finds nothing to lower');
});
