import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { CorpusWorker } from '../../src/catalog/index.js';
import { engine } from '../../src/insights/index.js';
import { lowerProcessPriority, startWorker } from '../../src/threads/index.js';
import { niceByThread } from '../helpers/index.js';

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

// Loading a worker's modules (the language model, the store) is CPU too: the thread is lowered before.
test('a worker thread is lowered before its module runs', {
  skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only',
}, async () => {
  const worker = startWorker('fixtures/report-priority', import.meta.url, null);
  try {
    const [nice] = await once(worker, 'message');
    assert.equal(nice, 10, 'the module found its thread at nice 10 without lowering it itself');
  } finally {
    await worker.terminate();
  }
});

// A batch command (an import) lowers all of itself, V8's platform threads included: they start at normal
// priority, and left there they would take the cores a server's event loop needs.
test('a whole process lowers itself: every thread, the main one included', {
  skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only',
}, () => {
  const before = niceByThread();
  const atNormal = [...before].filter(([, nice]) => nice < 10).map(([tid]) => tid);
  assert.ok(atNormal.includes(process.pid), 'the main thread starts at normal priority');
  assert.ok(atNormal.length >= 2, 'and so do other threads (V8’s platform)');
  assert.equal(lowerProcessPriority(), atNormal.length, 'each of them lowered once');
  const after = niceByThread();
  for (const tid of atNormal) if (after.has(tid)) assert.equal(after.get(tid), 10, `thread ${tid} at nice 10`);
  assert.equal(lowerProcessPriority(), 0, 'a second call finds nothing to lower');
});
