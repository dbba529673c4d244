import { parse as parseCsv } from 'csv-parse/sync';
import type { ImportRecordInput } from '../domain/index.js';
import { type RowError, type RowRef, ImportFileError } from './errors.js';
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

/** The format from the flag, else the file name, else the content. */
export function detectFormat(text: string, fileName: string, flag?: Format): Format {
  if (flag) return flag;
  const t = text.trimStart();
  if (/\.csv$/i.test(fileName)) return 'csv';
  if (/\.(ndjson|jsonl)$/i.test(fileName)) return 'ndjson';
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      const doc = JSON.parse(t);
      const items = Array.isArray(doc) ? doc : doc?.reviews;
      if (Array.isArray(items) && items.length > 0 && isGoogleReview(items[0])) return 'google';
      return 'json';
    } catch {
      // Several JSON values, one per line.
      if (t.startsWith('{')) return 'ndjson';
    }
  }
  return 'csv';
}

export function parseFile(text: string, format: Format): ParsedFile {
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
  if (!Array.isArray(items)) throw new ImportFileError([{ field: '', reason: 'expected a JSON array of reviews or an object with a "reviews" array' }]);
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
  const rows: RawRow[] = [];
  const errors: RowError[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    try {
      rows.push({ line: i + 1, value: JSON.parse(line) });
    } catch (err) {
      errors.push({ line: i + 1, field: '', reason: `not valid JSON: ${(err as Error).message}` });
    }
  });
  return { format: 'ndjson', rows, errors };
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
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parseCsv(text, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), info: true, skip_empty_lines: true, relax_column_count: false, bom: true });
  } catch (err) {
    const e = err as Error & { lines?: number };
    throw new ImportFileError([{ line: e.lines, field: '', reason: `not valid CSV: ${e.message}` }]);
  }
  return { format: 'csv', rows: records.map(({ record, info }) => ({ line: info.lines, value: csvRecord(record) })), errors: [] };
}
