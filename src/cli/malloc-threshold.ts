import cluster from 'node:cluster';
import { url as inspectorUrl } from 'node:inspector';

/**
 * glibc's malloc serves a block of at least its mmap threshold from a mapping of its own, returned to
 * the system when freed; smaller ones come from its heap, whose freed space it mostly keeps. Each time it
 * frees a mapped block it raises the threshold to that block's size (up to 32 MiB): after a server has
 * loaded a revision (snapshot parts of megabytes, read and dropped) every block under tens of megabytes
 * lands in the heap and stays there. Measured with `reviewcast serve` at 1,000,000 reviews: 646 MB of the
 * heap resident when ready, RSS 3,418 MB, and 2,805 MB with the threshold fixed at 1 MiB; at 100,000
 * 432 → 389–396 MB, the same search throughput. Setting the threshold also stops its raising.
 * The variable is read once, when the process starts; so `serve` starts itself again with it.
 */
export const MMAP_THRESHOLD_VARIABLE = 'MALLOC_MMAP_THRESHOLD_';
export const MMAP_THRESHOLD = String(1024 * 1024);

export interface ProcessFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
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
}

/**
 * The environment to start again with, or null to go on as is: on Linux with glibc and a Node that can
 * replace itself, nothing attached to it, unless the variable is already set (by the operator, whose
 * value wins, or by the start that made this one).
 */
export function restartEnv(p: ProcessFacts): NodeJS.ProcessEnv | null {
  if (p.platform !== 'linux' || !p.canExecve || p.attached || p.env[MMAP_THRESHOLD_VARIABLE] !== undefined || !p.glibc()) return null;
  return { ...p.env, [MMAP_THRESHOLD_VARIABLE]: MMAP_THRESHOLD };
}

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/** Whether this process runs on glibc, as Node's diagnostic report says (the way detect-libc tells). */
export function runsOnGlibc(): boolean {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === 'string';
}

/**
 * Replaces this process by the same command with the threshold fixed (same pid, arguments and Node
 * options; preloaded modules run again in the new process), when restartEnv says so; returns
 * otherwise, also if the replacement fails. Call it before anything starts: the replaced process's
 * state is gone. Before Node 22.15 (no `process.execve`) nothing happens; set the variable yourself there.
 */
export function fixMallocThreshold(): void {
  const execve = (process as { execve?: Execve }).execve;
  const permission = (process as { permission?: { has(scope: string): boolean } }).permission;
  const env = restartEnv({
    platform: process.platform,
    env: process.env,
    // Under the permission model, replacing the process needs the child-process permission.
    canExecve: typeof execve === 'function' && permission?.has('child') !== false,
    attached: process.channel !== undefined || cluster.isWorker || inspectorUrl() !== undefined,
    glibc: runsOnGlibc,
  });
  if (!env || !execve) return;
  try {
    execve.call(process, process.execPath, [process.argv0, ...process.execArgv, ...process.argv.slice(1)], env);
  } catch {
    // Serving with glibc's default behaviour beats not serving.
  }
}
