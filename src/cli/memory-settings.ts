import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { url as inspectorUrl } from 'node:inspector';

// Memory settings a process reads only when it starts, so `serve` starts itself again with them.

/**
 * glibc's malloc serves a block of at least its mmap threshold from a mapping of its own, returned to
 * the system when freed; smaller ones come from its heap, whose freed space it mostly keeps. Each time it
 * frees a mapped block it raises the threshold to that block's size (up to 32 MiB): after a server has
 * loaded a revision (snapshot parts of megabytes, read and dropped) every block under tens of megabytes
 * lands in the heap and stays there. Measured with `reviewcast serve` at 1,000,000 reviews: 646 MB of the
 * heap resident when ready, RSS 3,418 MB, and 2,805 MB with the threshold fixed at 1 MiB; at 100,000
 * 432 → 389–396 MB, the same search throughput. Setting the threshold also stops its raising.
 */
export const MMAP_THRESHOLD_VARIABLE = 'MALLOC_MMAP_THRESHOLD_';
export const MMAP_THRESHOLD = String(1024 * 1024);

/**
 * V8 14 (Node 26) pools the pages of an isolate that is torn down (a worker thread's, when it exits) for
 * other isolates to reuse, and gives them back to the system 8 s later, from a task on another isolate. The
 * corpus thread exits when idle to give its memory back (about 150 MB of RSS at 100k reviews): with this flag
 * the pages go as it exits. V8 reads it as set when the process starts (set later, it changed nothing); older
 * V8s do not know it (Node 20 and 22 free the pages at once, Node 24 after a delay of its own).
 */
export const THREAD_PAGES_FLAG = '--no-memory-pool-share-memory-on-teardown';
/** The flag either way, in either spelling: one given is the operator's, and kept. */
const GIVEN_FLAG = /^--(no[-_])?memory[-_]pool[-_]share[-_]memory[-_]on[-_]teardown$/;
const v8Major = (version: string) => Number(version.split('.')[0]);
/**
 * Every Node on this V8 accepts the flag (tried: 25.0.0 and 25.9.0 on V8 14.1, 26.12.1 on 14.6), so it is
 * not asked there: asking starts a Node, 60–100 ms of every `serve`. A later V8 may drop it, and is asked.
 */
const FLAG_KNOWN_ON = 14;

export interface ProcessFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Node's own flags this process was started with (`process.execArgv`). */
  execArgv: readonly string[];
  /** V8's version (`process.versions.v8`). */
  v8: string;
  /** Whether this Node can replace its process in place (`process.execve`, Node 22.15 and later) and may. */
  canExecve: boolean;
  /**
   * Whether something outside holds on to this process as it is: an IPC channel (fork, PM2, --watch),
   * a cluster worker's role, or a debugger. Node drops the variables that carry the first two from
   * `process.env` when it starts, so a replaced process would lose them.
   */
  attached: boolean;
  /** Whether the C library is glibc (the variable means nothing to another one); asked last, it costs a report. */
  glibc: () => boolean;
  /** Whether this Node starts with `flag` (one it does not know is refused, and the replaced process would exit); asked only on a V8 later than 14 (see FLAG_KNOWN_ON), it costs a process. */
  accepts: (flag: string) => boolean;
}

/** What to start again with: the environment and Node's flags. */
export interface Restart {
  env: NodeJS.ProcessEnv;
  execArgv: string[];
}

/**
 * What to start again with, or null to go on as is: only with a Node that can replace itself and nothing
 * attached to it; the threshold on Linux with glibc unless the variable is set already (by the operator,
 * whose value wins, or by the start that made this one); the flag on V8 14 and later unless given either way, if this Node accepts it.
 */
export function restartWith(p: ProcessFacts): Restart | null {
  if (!p.canExecve || p.attached) return null;
  const v8 = v8Major(p.v8);
  const wanted = v8 >= 14 && !p.execArgv.some((a) => GIVEN_FLAG.test(a));
  const flags = wanted && (v8 === FLAG_KNOWN_ON || p.accepts(THREAD_PAGES_FLAG)) ? [THREAD_PAGES_FLAG] : [];
  const threshold = p.platform === 'linux' && p.env[MMAP_THRESHOLD_VARIABLE] === undefined && p.glibc();
  if (!threshold && flags.length === 0) return null;
  return {
    env: threshold ? { ...p.env, [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD } : p.env,
    execArgv: [...p.execArgv, ...flags],
  };
}

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/** Whether this Node starts with `flag` and runs an empty script. */
export function nodeAccepts(flag: string): boolean {
  return spawnSync(process.execPath, [flag, '-e', ''], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

/** Whether this process runs on glibc, as Node's diagnostic report says (the way detect-libc tells). */
export function runsOnGlibc(): boolean {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === 'string';
}

/**
 * Replaces this process by the same command with the settings above (same pid, arguments and Node
 * options; preloaded modules run again in the new process), when restartWith says so; returns
 * otherwise, also if the replacement fails. Call it before anything starts: the replaced process's
 * state is gone. Before Node 22.15 (no `process.execve`) nothing happens; set the variable yourself there.
 */
export function fixMemorySettings(): void {
  const execve = (process as { execve?: Execve }).execve;
  const permission = (process as { permission?: { has(scope: string): boolean } }).permission;
  const restart = restartWith({
    platform: process.platform,
    env: process.env,
    execArgv: process.execArgv,
    v8: process.versions.v8,
    // Under the permission model, replacing the process needs the child-process permission.
    canExecve: typeof execve === 'function' && permission?.has('child') !== false,
    attached: process.channel !== undefined || cluster.isWorker || inspectorUrl() !== undefined,
    glibc: runsOnGlibc,
    accepts: nodeAccepts,
  });
  if (!restart || !execve) return;
  try {
    execve.call(process, process.execPath, [process.argv0, ...restart.execArgv, ...process.argv.slice(1)], restart.env);
  } catch {
    // Serving with the defaults beats not serving.
  }
}
