import { constants, setPriority } from 'node:os';

/**
 * Lowers the calling worker thread's CPU priority, for work nobody waits for (storing snapshots): on a
 * busy machine the event loop that answers requests runs first. Not for work on the freshness path: a
 * low-priority thread on a loaded machine gets a sliver of a core. Linux only: there a nice value
 * belongs to one thread, elsewhere it would apply to the whole process.
 */
export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not permitted here (a sandbox): the work still runs, at normal priority.
  }
}
