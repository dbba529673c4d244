import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let gc: Gc | null | undefined;

/**
 * V8 12 (Node 22) and later collect as they do under memory pressure when asked for the 'last-resort'
 * flavor: until nothing more is freed, then giving emptied pages and the young generation's room back to
 * the system (at 100k reviews on Node 26, RSS at ready 509–515 MB against 583–587 with a plain one).
 * Node 20's V8 reads the options otherwise (a call with them left the old generation as it was), so it
 * gets a plain call.
 */
const REDUCES_MEMORY = Number(process.versions.v8.split('.')[0]) >= 12;

/**
 * A full garbage collection now. Loading a stored revision leaves garbage (the stored value's parts it
 * let go of and has not collected yet, what decoding made), which V8 would return a second or two later; collected
 * before the first revision is served, the process is ready at the memory it keeps. Node exposes `gc`
 * only under --expose-gc: the flag is set here, for a function taken from a new context. A Node where
 * that gives none collects when V8 decides, as before: false then.
 */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    const found: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    // Off again: later contexts and worker threads get no global `gc`.
    setFlagsFromString('--no-expose-gc');
    gc = typeof found === 'function' ? (found as Gc) : null;
  }
  if (!gc) return false;
  if (REDUCES_MEMORY) gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  else gc();
  return true;
}
