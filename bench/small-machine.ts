// Runs reviewcast's processes as on the small VPS issue 16 names (1 vCPU, 1 GB) while the load generator
// keeps a core of its own: the processes are pinned to the first `cpus` CPUs (taskset) and put in a memory
// cgroup of `memoryMb` (page cache included, as on a machine of that size; root only). Linux.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/** Since the last mark: the cgroup's peak, how often its processes hit its limit (memory was reclaimed), and were killed for memory. */
export interface MemoryUse {
  peakMb: number;
  limitHits: number;
  oomKills: number;
}

/** The two cgroup layouts differ in where the memory controller is and what its files are called. */
interface Cgroup {
  dir: string;
  peak(): number;
  resetPeak(): void;
  limitHits(): number;
  oomKills(): number;
}

const number = (file: string) => Number(readFileSync(file, 'utf8').trim());
const field = (file: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(readFileSync(file, 'utf8'))?.[1] ?? 0);

function cgroupV1(name: string, bytes: number): Cgroup {
  const dir = join('/sys/fs/cgroup/memory', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'memory.limit_in_bytes'), String(bytes));
  return {
    dir,
    peak: () => number(join(dir, 'memory.max_usage_in_bytes')),
    resetPeak: () => writeFileSync(join(dir, 'memory.max_usage_in_bytes'), '0'),
    limitHits: () => number(join(dir, 'memory.failcnt')),
    oomKills: () => field(join(dir, 'memory.oom_control'), 'oom_kill'),
  };
}

/** cgroup v2 (the memory controller enabled for the root's children). Not run on the machine the docs' figures come from (v1). */
function cgroupV2(name: string, bytes: number): Cgroup {
  const dir = join('/sys/fs/cgroup', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'memory.max'), String(bytes));
  // memory.peak (Linux 5.19) is reset by a write from Linux 6.12; on older kernels it is the peak since creation.
  const peakFile = join(dir, 'memory.peak');
  return {
    dir,
    peak: () => number(existsSync(peakFile) ? peakFile : join(dir, 'memory.current')),
    resetPeak: () => {
      try {
        writeFileSync(peakFile, 'reset');
      } catch {}
    },
    limitHits: () => field(join(dir, 'memory.events'), 'max'),
    oomKills: () => field(join(dir, 'memory.events'), 'oom_kill'),
  };
}

export class SmallMachine {
  private readonly cgroup: Cgroup | null;
  private readonly cpuList: string | null;
  /** The counts at the last mark (both only grow). */
  private marked = { limitHits: 0, oomKills: 0 };

  constructor(
    readonly cpus: number | null,
    readonly memoryMb: number | null,
  ) {
    const all = availableParallelism();
    if (cpus !== null) {
      if (!(cpus >= 1 && cpus < all))
        throw new Error(`--cpus ${cpus}: this machine has ${all}; one at least is left to the load generator`);
      this.cpuList = `0-${cpus - 1}`;
      // This process (the load generator, and the bare servers it starts) on the other CPUs.
      const rest = spawnSync('taskset', ['-a', '-p', '-c', `${cpus}-${all - 1}`, String(process.pid)], { encoding: 'utf8' });
      if (rest.status !== 0) throw new Error(`taskset: ${rest.stderr || rest.error?.message}`);
    } else this.cpuList = null;
    if (memoryMb !== null) {
      const name = `reviewcast-bench-${process.pid}`;
      const bytes = memoryMb * 1024 * 1024;
      try {
        this.cgroup = existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes') ? cgroupV1(name, bytes) : cgroupV2(name, bytes);
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
