import { Worker } from 'node:worker_threads';

/**
 * Another connection committing short write transactions to a SQLite file on a thread of its own (as the
 * store-writer thread or a CLI import does beside the server) until `stop()`, which resolves to the
 * number of commits it made.
 */
export function competingWriter(file: string): { stop(): Promise<number> } {
  const stop = new SharedArrayBuffer(4);
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require('better-sqlite3');
    const db = new Database(workerData.file);
    db.pragma('busy_timeout = 5000');
    db.exec('create table if not exists competing_writes (n integer)');
    const flag = new Int32Array(workerData.stop);
    const write = db.prepare('insert into competing_writes (n) values (?)');
    let commits = 0;
    while (Atomics.load(flag, 0) === 0) {
      db.transaction(() => write.run(commits))();
      commits++;
      Atomics.wait(flag, 0, 0, 1);
    }
    db.close();
    parentPort.postMessage(commits);
    `,
    { eval: true, workerData: { file, stop } },
  );
  const done = new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop() {
      Atomics.store(new Int32Array(stop), 0, 1);
      Atomics.notify(new Int32Array(stop), 0);
      return done;
    },
  };
}
