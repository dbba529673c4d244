// Preloaded into a `reviewcast serve` process by bench/scale-memory-process.bench.ts (`--import`): answers
// the bench over the IPC channel with where the process's memory is, per thread. Plain JavaScript, so
// the compiled server loads it without tsx (which would add its own modules to what is measured).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/**
 * The corpus thread, started through bench/memory-probe-worker.mjs (loaded before its own module), which
 * answers on the thread's port. Node 20 runs no preload in workers and has no inspector domain for them
 * in the process itself, so the Worker class is wrapped here (no change to the server's code).
 */
const require = createRequire(import.meta.url);
const workerThreads = require('node:worker_threads');
const Original = workerThreads.Worker;
const probeWorker = new URL('./memory-probe-worker.mjs', import.meta.url).href;
const workers = new Set();
workerThreads.Worker = class extends Original {
  constructor(file, options = {}) {
    // A module URL, or (threads/start-worker.ts) code to evaluate that imports the thread's module.
    const code = file instanceof URL ? `import(${JSON.stringify(file.href)})` : options.eval ? String(file) : null;
    if (!code?.includes('corpus-thread')) {
      super(file, options);
      return;
    }
    const { port1, port2 } = new workerThreads.MessageChannel();
    super(`import(${JSON.stringify(probeWorker)}).then(() => ${code})`, {
      ...options,
      eval: true,
      workerData: { ...options.workerData, memoryProbe: port2 },
      transferList: [...(options.transferList ?? []), port2],
    });
    this.probeUrl = /corpus-thread[^"']*/.exec(code)[0];
    this.probePort = port1;
    port1.unref();
    workers.add(this);
    this.once('exit', () => workers.delete(this));
  }
};
syncBuiltinESMExports();

function inWorker(worker, collect, snapshot) {
  return new Promise((resolve) => {
    worker.probePort.once('message', resolve);
    worker.probePort.postMessage({ collect, snapshot });
  });
}

/** kB fields of /proc/self/status. */
function status() {
  const out = {};
  for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(Vm\w+|Rss\w+|Threads):\s+(\d+)/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

/** Resident kB of the process's mappings, by what they map (anonymous ones by their size class). */
function mappings() {
  const out = {};
  let name = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1];
      name =
        path === ''
          ? 'anonymous'
          : path.startsWith('[')
            ? path
            : path.includes('.so') || path.endsWith('/node')
              ? 'code and libraries'
              : 'other files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[name] = (out[name] ?? 0) + Number(rss[1]);
  }
  return out;
}

/** CPU seconds per thread, by thread name (the kernel's `comm`). */
function threads() {
  const out = [];
  for (const tid of readdirSync('/proc/self/task')) {
    const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    const f = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    out.push({ tid: Number(tid), comm, cpu: (Number(f[11]) + Number(f[12])) / 100 });
  }
  return out;
}

const askWorker = (w, collect, snapshot) =>
  Promise.race([inWorker(w, collect, snapshot), new Promise((r) => setTimeout(() => r({ error: 'no answer in 30 s' }), 30_000))]);

async function measure({ collect, snapshot }) {
  const asked = [...workers];
  const perWorker = [];
  for (const w of asked) perWorker.push({ url: w.probeUrl, ...(await askWorker(w, collect)) });
  if (collect) {
    gc();
    gc();
  }
  // Read before any heap snapshot is written: writing one takes memory the allocator keeps, which the
  // process's RSS read after it would show.
  const report = {
    status: status(),
    mappings: mappings(),
    main: { mu: process.memoryUsage(), heap: getHeapStatistics(), spaces: getHeapSpaceStatistics() },
    workers: perWorker,
    threads: threads(),
  };
  if (snapshot) {
    for (const [i, w] of asked.entries())
      perWorker[i].snapshot = (await askWorker(w, false, snapshot.replace(/\.heapsnapshot$/, '-corpus-thread.heapsnapshot'))).snapshot;
    report.snapshot = writeHeapSnapshot(snapshot);
  }
  return report;
}

process.on('message', (m) => {
  if (m?.t !== 'measure') return;
  measure(m).then(
    (report) => process.send({ t: 'measured', id: m.id, report }),
    (err) => process.send({ t: 'measured', id: m.id, error: String(err?.stack ?? err) }),
  );
});
// The IPC channel must not keep a stopped server alive.
process.channel?.unref();
