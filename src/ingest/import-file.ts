import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Store } from '../store/index.js';
import { type Line, utf8Lines } from './decode.js';
import { ImportFileError } from './errors.js';
import { detectFormat, type Format, namedNdjson, type ParsedFile, parseFile, parseNdjsonLines } from './formats.js';
import { type ImportOptions, type ImportReport, importRows } from './import.js';

export interface FileImportReport extends ImportReport {
  format: Format;
  rows: number;
}

/** Read, decode, detect, parse and import one file. Unreadable files throw ImportFileError. */
export async function importFile(store: Store, path: string, opts: ImportOptions & { format?: Format } = {}): Promise<FileImportReport> {
  const parsed = await readRows(path, opts.format);
  const report = await importRows(store, parsed.rows, parsed.errors, opts);
  return { ...report, format: parsed.format, rows: parsed.rows.length + parsed.errors.length };
}

/**
 * A file's rows. NDJSON (by flag or name) is parsed a line at a time as it streams in, so its size
 * is bounded by the rows, not by one string; a JSON document or a CSV file is decoded and parsed whole.
 */
async function readRows(path: string, flag?: Format): Promise<ParsedFile> {
  const name = basename(path);
  const lines = utf8Lines(createReadStream(path, { highWaterMark: 1 << 20 }));
  if (namedNdjson(name, flag)) return parseNdjsonLines(lines, name, flag);
  const text = await wholeText(lines);
  return parseFile(text, detectFormat(text, name, flag));
}

async function wholeText(lines: AsyncIterable<Line>): Promise<string> {
  const texts: string[] = [];
  for await (const { text } of lines) texts.push(text);
  try {
    return texts.join('\n');
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new ImportFileError([
      {
        field: '',
        reason:
          'the file is too large to read as one JSON document or CSV text; import it as NDJSON, one review per line (name it .ndjson)',
      },
    ]);
  }
}
