import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Another process committing short write transactions to a SQLite file (as a CLI import does beside
 * the server) until `stop()`, which resolves to the number of commits it made. With `holdMs` it first
 * holds the write lock in one transaction that long, as a large import does; `started` resolves once
 * it holds the lock (or has begun writing).
 */
export function competingWriter(file: string, opts: { holdMs?: number } = {}): { started: Promise<void>; stop(): Promise<number> } {
  const script = `
    const Database = require(${JSON.stringify(betterSqlite)});
    const db = new Database(${JSON.stringify(file)});
    db.pragma('busy_timeout = 5000');
    db.exec('create table if not exists competing_writes (n integer)');
    const write = db.prepare('insert into competing_writes (n) values (?)');
    let commits = 0;
    let stopping = false;
    process.stdin.on('data', () => (stopping = true));
    const hold = ${Number(opts.holdMs ?? 0)};
    if (hold) {
      db.exec('begin immediate');
      write.run(-1);
      process.stdout.write('holding\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, hold);
      db.exec('commit');
      commits++;
    } else process.stdout.write('holding\\n');
    const loop = () => {
      if (stopping) {
        db.close();
        process.stdout.write('commits ' + commits + '\\n');
        process.exit(0);
      }
      db.transaction(() => write.run(commits))();
      commits++;
      setTimeout(loop, 1);
    };
    loop();
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const started = new Promise<void>((resolve) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('holding')) resolve();
    });
  });
  const done = new Promise<number>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(Number(out.match(/commits (\d+)/)?.[1] ?? 0)) : reject(new Error(`writer exited ${code}`)),
    );
  });
  return {
    started,
    stop() {
      child.stdin.write('stop\n');
      return done;
    },
  };
}
