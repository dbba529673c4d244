import type { Steps } from './yield.js';

/**
 * Bytes written to fresh memory between two points where a slice may end. The first write to a new page
 * can be slow (a virtual machine that backs guest memory lazily: about 12 ms a MiB measured on the 2-core
 * test machine), so a copy of a few MiB in one go would hold the event loop for tens of milliseconds.
 */
export const TOUCH_STEP = 256 << 10;

const allocUnsafeSlow = (n: number) => Buffer.allocUnsafeSlow(n);

/**
 * Where a body is allocated: at its final size, or (`growable`) as memory that grows in place up to
 * `max` bytes, for a body written before its size is known (the address range is reserved, only the
 * pages written to are used).
 */
export interface Allocate {
  (bytes: number): Buffer;
  growable?: (max: number) => GrowableMemory;
}

/** An ArrayBuffer or SharedArrayBuffer made growable (ES2024; the project's TypeScript lib is ES2022). */
export type GrowableMemory = (ArrayBuffer | SharedArrayBuffer) & { readonly maxByteLength: number };

/** A buffer in shared memory: another thread reads it without a copy. */
export const sharedBuffer: Allocate = Object.assign((n: number) => Buffer.from(new SharedArrayBuffer(n)), {
  growable: (max: number) =>
    new (SharedArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => GrowableMemory)(0, { maxByteLength: max }),
});

/** Private memory that grows in place (a resizable ArrayBuffer). */
export const growablePrivate = (max: number) =>
  new (ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => GrowableMemory)(0, { maxByteLength: max });

/** Grows `memory` to at least `bytes` (SharedArrayBuffer#grow or ArrayBuffer#resize). */
export function growTo(memory: GrowableMemory, bytes: number): void {
  if (memory.byteLength >= bytes) return;
  const m = memory as GrowableMemory & { grow?: (n: number) => void; resize?: (n: number) => void };
  if (m.grow) m.grow(bytes);
  else m.resize!(bytes);
}

/**
 * A zeroed array whose every page has been written once, TOUCH_STEP bytes a step, for work that then
 * writes it out of order: scattered first writes would meet a fresh page on almost every one.
 */
export function* zeroedSteps<T extends Int32Array | Uint32Array | Uint8Array>(make: (n: number) => T, n: number): Steps<T> {
  const out = make(n);
  const step = TOUCH_STEP / out.BYTES_PER_ELEMENT;
  for (let i = 0; i < n; i += step) {
    out.fill(0, i, Math.min(n, i + step));
    yield;
  }
  return out;
}

/** 0, 1, …, n − 1 (positions in their own order), written TOUCH_STEP bytes a step. */
export function* everyPosition(n: number): Steps<Int32Array> {
  const out = new Int32Array(n);
  const step = TOUCH_STEP / 4;
  for (let i = 0; i < n; i++) {
    out[i] = i;
    if (i % step === step - 1) yield;
  }
  return out;
}

/** `parts` joined into one buffer made by `allocate`, as steps that pause every TOUCH_STEP bytes. */
export function joinSteps(parts: readonly Uint8Array[], allocate: (n: number) => Buffer = allocUnsafeSlow): Steps<Buffer> {
  return copySteps(parts, allocate, null);
}

/**
 * joinSteps for parts handed over: each entry of `parts` is emptied once copied, so the memory it views
 * can be collected while the rest is copied instead of after (what a loaded snapshot keeps at 1M reviews
 * is copied out of 470 MB of stored parts).
 */
export function drainSteps(parts: Uint8Array[], allocate: (n: number) => Buffer = allocUnsafeSlow): Steps<Buffer> {
  return copySteps(parts, allocate, parts);
}

/** What a drained entry is left holding: no bytes, in its place (readers walk the array by position). */
export const EMPTY_BYTES = Buffer.alloc(0);

function* copySteps(parts: readonly Uint8Array[], allocate: (n: number) => Buffer, drained: Uint8Array[] | null): Steps<Buffer> {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = allocate(total);
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (drained) drained[i] = EMPTY_BYTES;
    for (let from = 0; from < p.length; from += TOUCH_STEP) {
      const piece = p.subarray(from, Math.min(p.length, from + TOUCH_STEP));
      out.set(piece, at);
      at += piece.length;
      yield;
    }
  }
  return out;
}
