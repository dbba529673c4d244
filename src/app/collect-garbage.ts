import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/**
 * A full garbage collection now. Loading a stored revision leaves what it read and let go (the stored
 * value's parts, about 130 MB at 100k reviews), which V8 would return a second or two later; collected
 * before the first revision is served, the process is ready at the memory it keeps. Node exposes `gc`
 * only under --expose-gc: the flag is set here, for a function taken from a new context. A Node where
 * that gives none collects when V8 decides, as before.
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    const found: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    // Off again: later contexts and worker threads get no global `gc`.
    setFlagsFromString('--no-expose-gc');
    gc = typeof found === 'function' ? (found as () => void) : null;
  }
  gc?.();
}
