import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Store } from '../store/index.js';
import { decodeUtf8 } from './decode.js';
import { detectFormat, type Format, parseFile } from './formats.js';
import { type ImportOptions, type ImportReport, importRows } from './import.js';

export interface FileImportReport extends ImportReport {
  format: Format;
  rows: number;
}

/** Read, decode, detect, parse and import one file. Unreadable files throw ImportFileError. */
export async function importFile(store: Store, path: string, opts: ImportOptions & { format?: Format } = {}): Promise<FileImportReport> {
  const text = decodeUtf8(await readFile(path));
  const format = detectFormat(text, basename(path), opts.format);
  const parsed = parseFile(text, format);
  const report = await importRows(store, parsed.rows, parsed.errors, opts);
  return { ...report, format, rows: parsed.rows.length + parsed.errors.length };
}
