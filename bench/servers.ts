import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { startServer } from '../src/app/index.js';

/** A port free right now on 127.0.0.1, for servers that cannot listen on port 0. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

/** How much of a server's output (stdout and stderr) is kept. */
const OUTPUT_MAX = 1 << 20;

/** How Node is run with `args`: as it is, or confined to a small machine's share (bench/small-machine.ts). */
export type NodeCommand = (args: string[]) => { file: string; args: string[] };
const plainNode: NodeCommand = (args) => ({ file: process.execPath, args });

/** A server in its own process (so the load generator does not share its event loop), and its URL. */
export async function spawnServer(
  args: string[],
  env: NodeJS.ProcessEnv,
  urlPattern: RegExp,
  command: NodeCommand = plainNode,
): Promise<{ url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const run = command(args);
  const child = spawn(run.file, run.args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      // Kept for callers that read what the server logged, before it listened as well as after.
      if (out.length < OUTPUT_MAX) out += d;
      const m = !listening && out.match(urlPattern);
      if (m) {
        listening = true;
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`server exited (${signal ?? code}): ${out.slice(-2000)}`)));
  });
  return {
    url,
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Builds `dist/` in `checkout` (what `compiled` servers and the CLI run), or ends the bench if that fails. */
export function buildDist(checkout = process.cwd()): void {
  if (spawnSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit', cwd: checkout }).status !== 0) process.exit(1);
}

const LISTENING = /"url":"(http:[^"]+)".*reviewcast listening/;

/**
 * `reviewcast serve` on a free port over `db`, in its own process: from the TypeScript sources, or
 * `compiled` from `dist/` as the package runs it (bundled, `dist/bundle/`).
 */
export function spawnServe(
  db: string,
  /** `nodeOptions`: Node's own flags for the server alone (V8's heap settings, say), as NODE_OPTIONS. */
  opts: { publicBaseUrl?: string; env?: NodeJS.ProcessEnv; compiled?: boolean; nodeOptions?: string; command?: NodeCommand } = {},
): ReturnType<typeof spawnServer> {
  const cli = opts.compiled ? ['dist/bundle/main.js'] : ['--import', 'tsx', 'src/cli/main.ts'];
  const base = opts.publicBaseUrl ? ['--public-base-url', opts.publicBaseUrl] : [];
  return spawnServer(
    [...cli, 'serve', '--port', '0', '--host', '127.0.0.1', '--database-url', db, ...base],
    { LOG_LEVEL: 'info', ...opts.env, ...(opts.nodeOptions ? { NODE_OPTIONS: opts.nodeOptions } : {}) },
    LISTENING,
    opts.command,
  );
}

/** Each revision a server loaded, from its log: how many reviews, which path (full read, update, snapshot) and how long. */
export const revisionsLoaded = (output: string) =>
  [...output.matchAll(/"reviews":(\d+),"from":"([^"]+)"[^\n]*?"ms":(\d+)[^\n]*"catalog revision loaded"/g)].map(
    ([, reviews, from, ms]) => ({ reviews: Number(reviews), from, ms: Number(ms) }),
  );

/** Each take-over of a served revision by a corpus thread, from its log: from the stored image or the bodies, and how long (as logged). */
export const takeOversLogged = (output: string) =>
  [...output.matchAll(/"from":"(\w+)","ms":(\d+)[^\n]*"corpus thread took the revision over"/g)].map(([, from, ms]) => ({
    from,
    ms: Number(ms),
  }));

/** Each idle exit of a corpus thread, from its log: when (epoch ms) and the idle wait it followed (ms). */
export const corpusReleasesLogged = (output: string) =>
  [...output.matchAll(/"time":(\d+)[^\n]*"idle_ms":(\d+)[^\n]*"corpus thread released \(idle\)"/g)].map(([, at, ms]) => ({
    at: Number(at),
    idleMs: Number(ms),
  }));

/**
 * What `find` makes of a server's output once it makes something (looked at now and on each chunk the
 * server writes), or undefined after `withinMs`; a `find` that throws rejects.
 */
export function untilLogged<T>(
  server: { child: ChildProcess; output: () => string },
  find: (output: string) => T | undefined,
  withinMs = Number.POSITIVE_INFINITY,
): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const done = (settle: () => void) => {
      server.child.stdout!.off('data', check);
      clearTimeout(timer);
      settle();
    };
    const check = () => {
      try {
        const found = find(server.output());
        if (found !== undefined) done(() => resolve(found));
      } catch (err) {
        done(() => reject(err));
      }
    };
    const timer = Number.isFinite(withinMs) ? setTimeout(() => done(() => resolve(undefined)), withinMs) : undefined;
    server.child.stdout!.on('data', check);
    check();
  });
}

/** The server in this process on an existing database (benches that read its catalog), once it is ready. */
export async function startInProcess(databaseUrl: string) {
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'https://reviews.bench.example',
    LOG_LEVEL: 'warn',
    REVIEWCAST_DEMO_IF_EMPTY: '0',
  });
  while ((await fetch(`${server.url}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 50));
  return server;
}
