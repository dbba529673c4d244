import { constants, setPriority } from 'node:os';

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
    setPriority(0, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not permitted here (a sandbox): the work still runs, at normal priority.
  }
}
