// Loaded first in the corpus thread by bench/memory-probe.mjs: answers the probe on a port of its own
// (workerData.memoryProbe), so the thread's own port and messages are untouched.
import { getHeapStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { workerData } from 'node:worker_threads';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const port = workerData.memoryProbe;
port.on('message', (m) => {
  if (m.collect) gc();
  const report = { mu: process.memoryUsage(), heap: getHeapStatistics() };
  port.postMessage({ ...report, snapshot: m.snapshot ? writeHeapSnapshot(m.snapshot) : undefined });
});
port.unref();
