import { parse as parseCsv } from 'csv-parse/sync';
import type { ImportRecordInput } from '../domain/index.js';
import type { Line } from './decode.js';
import { ImportFileError, type RowError, type RowRef } from './errors.js';
import { googleToRecord, isGoogleReview } from './google.js';

export type Format = 'json' | 'ndjson' | 'csv' | 'google';
export const FORMATS: readonly Format[] = ['json', 'ndjson', 'csv', 'google'];

export interface RawRow extends RowRef {
  value: unknown;
}

export interface ParsedFile {
  format: Format;
  rows: RawRow[];
  /** Rows that could not even be read (bad JSON line, wrong shape): reported like invalid rows. */
  errors: RowError[];
}

const fileError = (reason: string) => new ImportFileError([{ field: '', reason }]);

/** Every value of a JSON-lines text parses (and there are at least two, so one JSON document is not mistaken for it). */
const isJsonLines = (t: string) => {
  const lines = t.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  try {
    for (const l of lines) JSON.parse(l);
    return true;
  } catch {
    return false;
  }
};

/** The parsed document, or undefined when the text is not one JSON value. */
const jsonDocument = (t: string): { doc: unknown } | undefined => {
  try {
    return { doc: JSON.parse(t) };
  } catch {
    return undefined;
  }
};

const jsonFlavour = (doc: unknown): Format => {
  const items = Array.isArray(doc) ? doc : (doc as { reviews?: unknown } | null)?.reviews;
  return Array.isArray(items) && items.length > 0 && isGoogleReview(items[0]) ? 'google' : 'json';
};

/**
 * The format from the flag, else the file name (checked against the content), else the content. A
 * file whose content fits neither its name nor any format is an error, as is an empty file: an import
 * of nothing is never what was meant (with --sync it would look like "every review is gone").
 */
export function detectFormat(text: string, fileName: string, flag?: Format): Format {
  const t = text.trim();
  if (t === '') throw fileError('the file is empty');
  if (flag) return flag;
  const looksJson = t.startsWith('[') || t.startsWith('{');
  if (/\.csv$/i.test(fileName)) {
    if (looksJson && jsonDocument(t)) throw fileError(`${fileName} is named .csv but holds JSON; rename it to .json or pass --format json`);
    return 'csv';
  }
  if (NDJSON_NAME.test(fileName)) {
    if (t.startsWith('[')) throw fileError(arrayInNdjson(fileName));
    return 'ndjson';
  }
  if (/\.json$/i.test(fileName)) {
    const json = jsonDocument(t);
    if (json) return jsonFlavour(json.doc);
    if (isJsonLines(t))
      throw fileError(`${fileName} is named .json but holds one JSON value per line; rename it to .ndjson or pass --format ndjson`);
    // Parsed as JSON anyway, so the error names where the JSON breaks.
    return 'json';
  }
  if (looksJson) {
    const json = jsonDocument(t);
    if (json) return jsonFlavour(json.doc);
    if (t.startsWith('{')) return 'ndjson';
  }
  return 'csv';
}

const NDJSON_NAME = /\.(ndjson|jsonl)$/i;
const arrayInNdjson = (fileName: string) =>
  `${fileName} is named .${fileName.split('.').pop()} but holds a JSON array, not one JSON object per line; rename it to .json or pass --format json`;

/** Whether the flag, or else the file's name, says NDJSON: such a file is parsed a line at a time as it is read. */
export const namedNdjson = (fileName: string, flag?: Format) => (flag ? flag === 'ndjson' : NDJSON_NAME.test(fileName));

/**
 * `detectFormat` then `parseFile` for a file `namedNdjson` says is NDJSON, over its lines as they are
 * read (so a file larger than one string may be is imported): the same errors, in the same order.
 */
export async function parseNdjsonLines(lines: AsyncIterable<Line>, fileName: string, flag?: Format): Promise<ParsedFile> {
  const parsed: ParsedFile = { format: 'ndjson', rows: [], errors: [] };
  let blank = true;
  let array = false;
  for await (const { line, text } of lines) {
    if (blank) {
      if (text.trim() === '') continue;
      blank = false;
      array = !flag && text.trimStart().startsWith('[');
    }
    // After a JSON array's first line the rest is only decoded: invalid UTF-8 anywhere is reported first.
    if (!array) ndjsonLine(text, line, parsed);
  }
  if (blank) throw fileError('the file is empty');
  if (array) throw fileError(arrayInNdjson(fileName));
  return parsed;
}

/** Parse a file in a format; a file without a single review row is an error. */
export function parseFile(text: string, format: Format): ParsedFile {
  const parsed = parseAs(text, format);
  if (parsed.rows.length + parsed.errors.length === 0)
    throw fileError(`no reviews in the file (read as ${format === 'google' ? 'a Google Business Profile export' : format.toUpperCase()})`);
  return parsed;
}

function parseAs(text: string, format: Format): ParsedFile {
  switch (format) {
    case 'json':
    case 'google':
      return parseJson(text, format);
    case 'ndjson':
      return parseNdjson(text);
    case 'csv':
      return parseCsvFile(text);
  }
}

function parseJson(text: string, format: 'json' | 'google'): ParsedFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ImportFileError([{ field: '', reason: `not valid JSON: ${(err as Error).message}` }]);
  }
  const items = Array.isArray(doc) ? doc : (doc as { reviews?: unknown })?.reviews;
  if (!Array.isArray(items))
    throw fileError(
      `expected a JSON array of reviews or an object with a "reviews" array (got ${doc === null ? 'null' : Array.isArray(doc) ? 'an array' : typeof doc})`,
    );
  const rows: RawRow[] = [];
  const errors: RowError[] = [];
  items.forEach((value, index) => {
    if (format !== 'google') return rows.push({ index, value });
    const mapped = googleToRecord(value);
    if ('errors' in mapped) errors.push(...mapped.errors.map((e) => ({ index, ...e })));
    else rows.push({ index, value: mapped.record });
  });
  return { format, rows, errors };
}

function parseNdjson(text: string): ParsedFile {
  const parsed: ParsedFile = { format: 'ndjson', rows: [], errors: [] };
  text.split('\n').forEach((raw, i) => ndjsonLine(raw, i + 1, parsed));
  return parsed;
}

/** One line of an NDJSON file into the rows, or the errors when it is not JSON; blank lines are skipped. */
function ndjsonLine(raw: string, line: number, parsed: ParsedFile): void {
  const text = raw.replace(/\r$/, '');
  if (text.trim() === '') return;
  try {
    parsed.rows.push({ line, value: JSON.parse(text) });
  } catch (err) {
    parsed.errors.push({ line, field: '', reason: `not valid JSON: ${(err as Error).message}` });
  }
}

const BOOL: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
const LIST = /\s*[;|]\s*/;

/** CSV cells are text: turn them into the import record's types, leaving bad values for the schema to report. */
function csvRecord(cells: Record<string, string>): ImportRecordInput {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(cells)) {
    const v = raw.trim();
    if (v === '') continue;
    if (key === 'rating') out.rating = /^[+-]?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
    else if (key === 'verified') out.verified = BOOL[v.toLowerCase()] ?? v;
    else if (key === 'technicians' || key === 'services') out[key] = v.split(LIST).filter(Boolean);
    else if (key === 'verification_method') out.verification = { method: v };
    else if (key !== 'owner_reply_text' && key !== 'owner_reply_date') out[key] = raw;
  }
  if (cells.owner_reply_text?.trim() || cells.owner_reply_date?.trim()) {
    out.owner_reply = { text: cells.owner_reply_text?.trim() ?? '', date: cells.owner_reply_date?.trim() ?? '' };
  }
  return out as ImportRecordInput;
}

function parseCsvFile(text: string): ParsedFile {
  // The header first: a file that is not a CSV of reviews is named as such, not by its first bad row.
  const header = csvHeader(text);
  const missing = CSV_REQUIRED.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new ImportFileError([
      {
        line: 1,
        field: '',
        reason: `not a CSV of reviews: the header row lacks ${missing.join(', ')} (found ${header.length ? header.map((h) => JSON.stringify(h.slice(0, 40))).join(', ') : 'no columns'})`,
      },
    ]);
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parseCsv(text, {
      columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
      info: true,
      skip_empty_lines: true,
      relax_column_count: false,
      bom: true,
    });
  } catch (err) {
    const e = err as Error & { lines?: number };
    throw new ImportFileError([{ line: e.lines, field: '', reason: `not valid CSV: ${e.message}` }]);
  }
  return { format: 'csv', rows: records.map(({ record, info }) => ({ line: info.lines, value: csvRecord(record) })), errors: [] };
}

/** Columns every review needs (the rest have defaults or may be empty). */
const CSV_REQUIRED = ['author', 'rating', 'date'];

/** The header row's column names (trimmed, lower case). */
function csvHeader(text: string): string[] {
  try {
    const [first] = parseCsv(text, { to_line: 1, bom: true, relax_column_count: true }) as string[][];
    return (first ?? []).map((c) => c.trim().toLowerCase());
  } catch {
    return [];
  }
}
