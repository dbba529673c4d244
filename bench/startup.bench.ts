// Start-up and CLI latency of what ships (the compiled dist/ as bundled into dist/bundle/) against the
// compiled modules unbundled (how 0.3.0 ran) and the same source run through tsx (how 0.1.0 ran), on a
// 2,000-review SQLite database. Prints the fastest and the median of N runs: on a
// shared machine other work only ever adds time, so the fastest run is the steadier figure.
//   npm run bench -- startup [--runs 7]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, fmt, table } from './lib.js';
import { buildDist } from './servers.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
const dir = benchDir();
const base = join(dir, 'base.db');
const db = join(dir, 'run.db');
// Snapshots are stored per base URL: a fixed one lets every start load the one the first start stored.
const BASE_URL = 'https://reviews.bench.example';

buildDist();

const variants = {
  bundled: { label: 'bundled `dist/bundle/`', command: [process.execPath, 'dist/bundle/main.js'] },
  compiled: { label: 'compiled `dist/`, unbundled', command: [process.execPath, 'dist/cli/main.js'] },
  tsx: { label: 'same source through tsx', command: [process.execPath, '--import', 'tsx', 'src/cli/main.ts'] },
};
type Variant = keyof typeof variants;

function cli(v: Variant, ...args: string[]): void {
  const [cmd, ...pre] = variants[v].command;
  const r = spawnSync(cmd, [...pre, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
}

async function timeMs(prepare: () => void, run: () => unknown): Promise<string[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    prepare();
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return [times[0], times[Math.floor(times.length / 2)]].map((ms) => `${fmt(ms, 0)} ms`);
}

const fresh = () => {
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(db + suffix, { force: true });
    if (existsSync(base + suffix)) copyFileSync(base + suffix, db + suffix);
  }
};

/** Spawn a server and resolve when it logs that it listens; then stop it with SIGTERM. */
async function untilListening(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child: ChildProcess = spawn(cmd, args, {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('"msg":"reviewcast listening"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out.slice(-2000)}`)));
  });
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM'); // the whole group: npm start runs the server in a child
  await exited;
}

// The database: the demo business, 2,000 reviews, and the snapshot a first start stores.
cli('bundled', 'demo', '--reviews', '2000', '--out', join(dir, 'reviews.ndjson'), '--business-out', join(dir, 'business.json'));
cli('bundled', 'business', 'set', join(dir, 'business.json'), '--database-url', base);
cli('bundled', 'import', join(dir, 'reviews.ndjson'), '--database-url', base);
cli('bundled', 'demo', '--reviews', '1', '--seed', '99', '--out', join(dir, 'one.json'));
const [node, ...bundled] = variants.bundled.command;
await untilListening(
  node,
  [...bundled, 'serve', '--port', '0', '--host', '127.0.0.1', '--public-base-url', BASE_URL, '--database-url', base],
  {},
);

const rows: (string | number)[][] = [];
for (const v of Object.keys(variants) as Variant[]) {
  const {
    label,
    command: [cmd, ...pre],
  } = variants[v];
  rows.push([
    '`reviewcast --help`',
    label,
    ...(await timeMs(
      () => {},
      () => cli(v, '--help'),
    )),
  ]);
  rows.push([
    '`reviewcast import one.json` (one new review, with its analysis)',
    label,
    ...(await timeMs(fresh, () => cli(v, 'import', join(dir, 'one.json'), '--database-url', db))),
  ]);
  rows.push([
    '`reviewcast serve` to listening (stored snapshot)',
    label,
    ...(await timeMs(fresh, () =>
      untilListening(cmd, [...pre, 'serve', '--port', '0', '--host', '127.0.0.1', '--public-base-url', BASE_URL, '--database-url', db], {}),
    )),
  ]);
}
rows.push([
  '`npm start` to listening (npm, the no-op build, then serve)',
  variants.bundled.label,
  ...(await timeMs(fresh, () =>
    untilListening('npm', ['start', '--', '--port', '0', '--host', '127.0.0.1', '--public-base-url', BASE_URL, '--database-url', db], {}),
  )),
]);
console.log(`\n${runs} runs each; Node ${process.version}\n`);
table(['command', 'runs as', 'fastest', 'median'], rows);
