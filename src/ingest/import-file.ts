import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Store } from '../store/index.js';
import { utf8Lines, utf8Text } from './decode.js';
import { type Format, readFormatted } from './formats.js';
import { type ImportOptions, type ImportReport, importRows } from './import.js';

export interface FileImportReport extends ImportReport {
  format: Format;
  rows: number;
}

/**
 * Read, decode, detect, parse and import one file. Every format streams in (the rows are held, never
 * the file as one string), so the size of a file is bounded by its rows. Unreadable files throw ImportFileError.
 */
export async function importFile(store: Store, path: string, opts: ImportOptions & { format?: Format } = {}): Promise<FileImportReport> {
  const read = () => createReadStream(path, { highWaterMark: 1 << 20 });
  const parsed = await readFormatted({ lines: () => utf8Lines(read()), text: () => utf8Text(read()) }, basename(path), opts.format);
  const rows = parsed.rows.length + parsed.errors.length;
  const report = await importRows(store, parsed.rows, parsed.errors, opts);
  return { ...report, format: parsed.format, rows };
}
