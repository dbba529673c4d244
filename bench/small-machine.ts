// Runs reviewcast's processes as on the small VPS issue 16 names (1 vCPU, 1 GB) while the load generator
// keeps a core of its own: the processes are pinned to the first `cpus` CPUs (taskset) and put in a memory
// cgroup of `memoryMb` (page cache included, as on a machine of that size; root, cgroup v1). Linux.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/** Since the last mark: the cgroup's peak, how often its processes hit its limit (memory was reclaimed), and were killed for memory. */
export interface MemoryUse {
  peakMb: number;
  limitHits: number;
  oomKills: number;
}

/** cgroup v1's memory controller (where this project's machine has it). */
const V1_ROOT = '/sys/fs/cgroup/memory';
const PREFIX = 'reviewcast-bench-';

const number = (file: string) => Number(readFileSync(file, 'utf8').trim());

/**
 * A memory cgroup of `bytes` (v1 only: v2's peak is reset per open file, which a reader in another process
 * does not see, so its phases could not be told apart the same way).
 */
function memoryCgroup(name: string, bytes: number) {
  if (!existsSync(join(V1_ROOT, 'memory.limit_in_bytes')))
    throw new Error(`no cgroup v1 memory controller at ${V1_ROOT}; this bench does not use cgroup v2`);
  // Those of earlier runs that ended without removing theirs (a run killed, or an error): empty ones go.
  for (const old of readdirSync(V1_ROOT).filter((d) => d.startsWith(PREFIX)))
    try {
      rmdirSync(join(V1_ROOT, old));
    } catch {}
  const dir = join(V1_ROOT, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'memory.limit_in_bytes'), String(bytes));
  // Swap counts too where the host has it: the VPS this stands for mostly has none.
  const withSwap = join(dir, 'memory.memsw.limit_in_bytes');
  if (existsSync(withSwap)) writeFileSync(withSwap, String(bytes));
  return {
    dir,
    peak: () => number(join(dir, 'memory.max_usage_in_bytes')),
    resetPeak: () => writeFileSync(join(dir, 'memory.max_usage_in_bytes'), '0'),
    limitHits: () => number(join(dir, 'memory.failcnt')),
    oomKills: () => Number(/^oom_kill (\d+)$/m.exec(readFileSync(join(dir, 'memory.oom_control'), 'utf8'))?.[1] ?? 0),
  };
}

export class SmallMachine {
  private readonly cgroup: ReturnType<typeof memoryCgroup> | null;
  private readonly cpuList: string | null;
  /** The counts at the last mark (both only grow). */
  private marked = { limitHits: 0, oomKills: 0 };

  /** CPUs are taken as numbered 0 to availableParallelism() − 1 (not a process already confined to others). */
  constructor(cpus: number | null, memoryMb: number | null) {
    const all = availableParallelism();
    if (cpus !== null) {
      if (!(cpus >= 1 && cpus < all))
        throw new Error(`--cpus ${cpus}: this machine has ${all}; one at least is left to the load generator`);
      this.cpuList = `0-${cpus - 1}`;
      // This process (the load generator) on the other CPUs.
      const rest = spawnSync('taskset', ['-a', '-p', '-c', `${cpus}-${all - 1}`, String(process.pid)], { encoding: 'utf8' });
      if (rest.status !== 0) throw new Error(`taskset: ${rest.stderr || rest.error?.message}`);
    } else this.cpuList = null;
    if (memoryMb !== null) {
      if (!(Number.isInteger(memoryMb) && memoryMb > 0)) throw new Error(`--memory ${memoryMb}: a whole number of MB`);
      const name = `${PREFIX}${process.pid}`;
      const bytes = memoryMb * 1024 * 1024;
      try {
        this.cgroup = memoryCgroup(name, bytes);
      } catch (err) {
        throw new Error(`--memory needs a memory cgroup this user can make (root): ${(err as Error).message}`);
      }
    } else this.cgroup = null;
  }

  /**
   * The command that runs Node with `args` on the machine's CPUs and, `inMemory`, within its memory (the
   * process keeps its pid: sh and taskset exec).
   */
  command(args: string[], inMemory = true): { file: string; args: string[] } {
    const node = this.cpuList ? ['taskset', '-c', this.cpuList, process.execPath, ...args] : [process.execPath, ...args];
    if (!this.cgroup || !inMemory) return { file: node[0], args: node.slice(1) };
    return { file: 'sh', args: ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', this.cgroup.dir, ...node] };
  }

  /** What the cgroup used since the last mark (null without --memory). */
  memoryUse(): MemoryUse | null {
    const c = this.cgroup;
    if (!c) return null;
    return { peakMb: c.peak() / 1048576, limitHits: c.limitHits() - this.marked.limitHits, oomKills: c.oomKills() - this.marked.oomKills };
  }

  /** memoryUse() from now on. */
  mark(): void {
    const c = this.cgroup;
    if (!c) return;
    c.resetPeak();
    this.marked = { limitHits: c.limitHits(), oomKills: c.oomKills() };
  }

  /** Removes the cgroup (once its processes have exited). */
  close(): void {
    if (this.cgroup)
      try {
        rmdirSync(this.cgroup.dir);
      } catch {}
  }
}
