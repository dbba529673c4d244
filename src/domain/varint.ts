/**
 * Bytes of `n` (0 ≤ n < 2^35) as a varint: 7 bits a byte, low bits first, the high bit set on all but the
 * last (the text index's postings, the room for a string's length in the corpus image).
 */
export const varintBytes = (n: number): number => (n < 1 << 7 ? 1 : n < 1 << 14 ? 2 : n < 1 << 21 ? 3 : n < 1 << 28 ? 4 : 5);
