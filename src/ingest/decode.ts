import { ImportFileError } from './errors.js';

/** The first line drops a UTF-8 BOM; a U+FEFF anywhere else is text, as a whole-file decode keeps it. */
const firstLineDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** One line of a file, decoded, without its `\n`; numbered from 1. */
export interface Line {
  line: number;
  text: string;
}

/**
 * A byte stream as strict UTF-8 lines, split at `\n` (a `\r` before it is kept, as String.split would),
 * one line in memory at a time: a file of any size is read without ever being one string. Splitting
 * the bytes first is exact because no UTF-8 sequence contains the byte 0x0A, so the lines decode as
 * the whole would; invalid bytes are reported with their line and file offset, never replaced silently.
 */
export async function* utf8Lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Line> {
  let line = 1;
  let offset = 0;
  let partial: Buffer[] = [];
  let first = true;
  const decode = (bytes: Uint8Array): Line => {
    if (first) refuseUtf16(bytes);
    let text: string;
    try {
      text = (first ? firstLineDecoder : decoder).decode(bytes);
    } catch {
      throw invalidUtf8(line, offset + firstInvalidUtf8(bytes));
    }
    first = false;
    const out = { line, text };
    line++;
    offset += bytes.length + 1;
    return out;
  };
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a, start)) {
      const piece = bytes.subarray(start, end);
      yield decode(partial.length > 0 ? Buffer.concat([...partial, piece]) : piece);
      partial = [];
      start = end + 1;
    }
    // The chunk's bytes may be reused by the stream: keep a copy of an unfinished line.
    if (start < bytes.length) partial.push(Buffer.from(bytes.subarray(start)));
  }
  yield decode(Buffer.concat(partial));
}

/**
 * A byte stream as strict UTF-8 text, one piece per chunk (a piece may end anywhere, even inside a
 * line): for formats whose records are not lines, such as a JSON document written on one line. A
 * leading BOM is dropped as a whole-file decode drops it; invalid bytes are reported with their line
 * and file offset.
 */
export async function* utf8Text(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const stream = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let offset = 0;
  let lines = 1;
  /** The bytes of an unfinished character at the end of the last chunk, which the decoder holds. */
  let pending: Buffer = Buffer.alloc(0);
  const invalid = (bytes: Buffer): never => {
    const at = firstInvalidUtf8(bytes);
    let line = lines;
    for (let i = bytes.indexOf(0x0a); i >= 0 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
    throw invalidUtf8(line, offset + at);
  };
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (offset === 0 && pending.length === 0) refuseUtf16(bytes);
    let text: string;
    try {
      text = stream.decode(bytes, { stream: true });
    } catch {
      return invalid(Buffer.concat([pending, bytes]));
    }
    const held = Buffer.concat([pending, bytes]);
    const tail = unfinishedTail(held);
    offset += held.length - tail;
    for (let i = held.indexOf(0x0a); i >= 0 && i < held.length - tail; i = held.indexOf(0x0a, i + 1)) lines++;
    // The chunk's bytes may be reused by the stream: keep a copy of an unfinished character.
    pending = Buffer.from(held.subarray(held.length - tail));
    if (text !== '') yield text;
  }
  try {
    const rest = stream.decode();
    if (rest !== '') yield rest;
  } catch {
    invalid(pending);
  }
}

/** A file's first bytes starting with a UTF-16 byte order mark are refused, whichever reader meets them. */
function refuseUtf16(bytes: Uint8Array): void {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ImportFileError([
      { line: 1, field: '', reason: 'the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8' },
    ]);
  }
}

const invalidUtf8 = (line: number, byte: number) =>
  new ImportFileError([{ line, field: '', reason: `invalid UTF-8 at byte ${byte}; save the file as UTF-8` }]);

/** How many bytes at the end of valid UTF-8 `bytes` begin a character that is not complete yet (0–3). */
function unfinishedTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue;
    const len = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    return len > back ? back : 0;
  }
  return 0;
}

/** Offset of the first byte of `bytes` (one line) that does not start a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    try {
      decoder.decode(bytes.subarray(i, i + len));
    } catch {
      return i;
    }
    i += len;
  }
  return i;
}
