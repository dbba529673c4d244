import { readdirSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

const BELOW_NORMAL = constants.priority.PRIORITY_BELOW_NORMAL;

/**
 * Lowers the calling worker thread's CPU priority (nice 10). The event loop that answers requests then
 * runs first whenever it and a background thread (store writes, analyses, the corpus model of a build)
 * want the same core; on a free core it changes nothing. The price, chosen: on a machine saturated by
 * other processes a build gets less of a core and a new revision comes later. Linux only: there a nice
 * value belongs to one thread, elsewhere it would apply to the whole process.
 */
export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, BELOW_NORMAL);
  } catch {
    // Not permitted here (a sandbox): the work still runs, at normal priority.
  }
}

/**
 * Lowers every other thread of the process to the workers' priority, from the main thread: V8's
 * platform threads (garbage collection and compilation for every isolate, so mostly the corpus
 * thread's during a build) and libuv's pool (zlib's codings of the large bodies, file I/O), which the
 * process starts at the event loop's priority. Four of them at that priority beside a build kept the
 * event loop waiting for a core for 60–80 ms at a time on two cores. Called at each build, since libuv
 * starts its pool on first use. Returns how many threads it lowered (Linux only, else 0).
 */
export function lowerHelperThreads(): number {
  if (process.platform !== 'linux') return 0;
  let lowered = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    // On Linux a thread id names one thread in setpriority's PRIO_PROCESS.
    if (Number(tid) === process.pid) continue;
    try {
      if (getPriority(Number(tid)) < BELOW_NORMAL) {
        setPriority(Number(tid), BELOW_NORMAL);
        lowered++;
      }
    } catch {
      // The thread ended meanwhile, or this is not permitted: it keeps its priority.
    }
  }
  return lowered;
}

/**
 * Lowers the whole process (each thread it has now, and so each it starts later): for batch commands
 * (an import, a re-analysis) that share the machine with a server, whose event loop then gets a core
 * first. Beside a server's lowered helper threads, an import at normal priority would also keep them
 * waiting, and the server's event loop with them when its garbage collection waits for its helpers.
 */
export function lowerProcessPriority(): void {
  lowerThreadPriority();
  lowerHelperThreads();
}
