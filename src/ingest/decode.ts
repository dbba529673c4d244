import { ImportFileError } from './errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Strict UTF-8 (a BOM is dropped); invalid bytes are reported with their line, never replaced silently. */
export function decodeUtf8(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ImportFileError([
      { line: 1, field: '', reason: 'the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8' },
    ]);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    const { line, offset } = firstInvalidUtf8(bytes);
    throw new ImportFileError([{ line, field: '', reason: `invalid UTF-8 at byte ${offset}; save the file as UTF-8` }]);
  }
}

function firstInvalidUtf8(bytes: Uint8Array): { line: number; offset: number } {
  let line = 1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return { line, offset: i };
    try {
      decoder.decode(bytes.subarray(i, i + len));
    } catch {
      return { line, offset: i };
    }
    if (b === 0x0a) line++;
    i += len;
  }
  return { line, offset: i };
}
