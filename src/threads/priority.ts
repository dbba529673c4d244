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
 * Lowers the whole process, every thread it has (and so each it starts later), for batch commands (an
 * import, a re-analysis) that share the machine with a server: the server's event loop, and the V8
 * platform threads its garbage collection waits for, then get a core first. The threads other than the
 * calling one are V8's platform (collection and compilation for every isolate) and libuv's pool, which
 * start at normal priority. A server does not lower its own platform threads: its event loop's
 * collections wait for them (measured: the event loop asleep 110 ms while a lowered platform thread
 * finished the collector's work behind other processes). Linux only; returns how many threads it lowered.
 */
export function lowerProcessPriority(): number {
  if (process.platform !== 'linux') return 0;
  let lowered = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      // On Linux a thread id names one thread in setpriority's PRIO_PROCESS (0 is the caller).
      const id = Number(tid) === process.pid ? 0 : Number(tid);
      if (getPriority(id) < BELOW_NORMAL) {
        setPriority(id, BELOW_NORMAL);
        lowered++;
      }
    } catch {
      // The thread ended meanwhile, or this is not permitted: it keeps its priority.
    }
  }
  return lowered;
}
