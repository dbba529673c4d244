import { StringDecoder } from 'node:string_decoder';
import { EMPTY_BYTES } from '../threads/index.js';

/**
 * Reads a byte sequence kept in parts (a stored value read back a piece at a time) front to back,
 * handing out slices of the parts: joining them first would copy the whole value into fresh memory.
 */
export class PartsReader {
  #k = 0;
  #at = 0;
  #remaining: number;
  #handedOver: Buffer[] | null = null;
  constructor(private readonly parts: readonly Buffer[]) {
    this.#remaining = totalLength(parts);
  }

  /**
   * A reader of parts handed over to it: it empties each entry of `parts` once it has read past it, so
   * a part can be collected as soon as nothing taken from it is held any more.
   */
  static draining(parts: Buffer[]): PartsReader {
    const reader = new PartsReader(parts);
    reader.#handedOver = parts;
    return reader;
  }

  get remaining(): number {
    return this.#remaining;
  }

  /** The next `n` bytes, as slices of the parts (no copy); throws when fewer are left. */
  take(n: number, what: string): Buffer[] {
    if (n < 0 || n > this.#remaining) throw new Error(`${what} is cut short`);
    this.#remaining -= n;
    const out: Buffer[] = [];
    while (n > 0) {
      const part = this.parts[this.#k];
      const piece = part.subarray(this.#at, Math.min(part.length, this.#at + n));
      if (piece.length > 0) out.push(piece);
      n -= piece.length;
      this.#at += piece.length;
      if (this.#at === part.length) {
        if (this.#handedOver) this.#handedOver[this.#k] = EMPTY_BYTES;
        this.#k++;
        this.#at = 0;
      }
    }
    return out;
  }

  /** The next 4 bytes as an unsigned little-endian integer. */
  uint32(what: string): number {
    return joined(this.take(4, what)).readUInt32LE(0);
  }
}

/** How many bytes parts hold together. */
export const totalLength = (parts: readonly Buffer[]): number => parts.reduce((n, p) => n + p.length, 0);

/** Slices as one buffer: the slice itself when there is one (no copy). */
export const joined = (slices: readonly Buffer[]): Buffer => (slices.length === 1 ? slices[0] : Buffer.concat(slices));

/** UTF-8 across slices, a character split between two decoded whole; one string per slice. */
export function utf8Pieces(slices: readonly Buffer[]): string[] {
  const decoder = new StringDecoder('utf8');
  const pieces = slices.map((s) => decoder.write(s));
  pieces.push(decoder.end());
  return pieces.filter((p) => p.length > 0);
}
