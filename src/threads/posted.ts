/**
 * Bytes as posted to a thread: only their own. A view into a larger buffer (a loaded snapshot's packed
 * sections, Node's pool of small buffers) would be cloned, or transferred, with the whole buffer.
 */
export const ownBytes = (b: Buffer): Uint8Array => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b));
