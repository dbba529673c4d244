import { setFlagsFromString } from 'node:v8';

/**
 * V8 14 (Node 26) pools the pages of an isolate that is torn down, a worker thread's that exits, for other
 * isolates to reuse, and gives them back to the system only 8 s later, from a task on another isolate. The
 * corpus thread exits when idle so as to give its memory back (about 150 MB of RSS at 100k reviews), so the
 * pages are freed as it exits instead. Earlier V8s have no such flag: Node 20 and 22 free them at once,
 * Node 24 after its own delay.
 */
const POOLS_ON_TEARDOWN = Number(process.versions.v8.split('.')[0]) >= 14;

/** Has V8 free the pages of every isolate torn down from now on at once; false where it has no such choice. */
export function freePagesOfExitedThreads(): boolean {
  if (!POOLS_ON_TEARDOWN) return false;
  setFlagsFromString('--no-memory-pool-share-memory-on-teardown');
  return true;
}
