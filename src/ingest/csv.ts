import { finished } from 'node:stream/promises';
import { type CsvError, parse } from 'csv-parse';
import type { ImportRecordInput } from '../domain/index.js';
import { ImportFileError } from './errors.js';
import type { RawRow } from './formats.js';

const BOOL: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
const LIST = /\s*[;|]\s*/;

/** Columns every review needs (the rest have defaults or may be empty). */
const CSV_REQUIRED = ['author', 'rating', 'date'];

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

/** A file that is not a CSV of reviews is named as such, not by its first bad row. */
const notReviews = (header: string[]) =>
  new ImportFileError([
    {
      line: 1,
      field: '',
      reason: `not a CSV of reviews: the header row lacks ${CSV_REQUIRED.filter((c) => !header.includes(c)).join(', ')} (found ${header.length ? header.map((h) => JSON.stringify(h.slice(0, 40))).join(', ') : 'no columns'})`,
    },
  ]);

/**
 * The rows of a CSV text given in pieces (which may end anywhere), parsed by csv-parse as they come:
 * only the rows are held, never the text. Each row is numbered by the line it ends on.
 */
export async function readCsvRows(pieces: AsyncIterable<string>): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  let header: string[] | undefined;
  let failure: unknown;
  const parser = parse({
    columns: (cells: string[]) => {
      header = cells.map((c) => c.trim().toLowerCase());
      if (CSV_REQUIRED.some((c) => !header!.includes(c))) throw notReviews(header);
      return header;
    },
    info: true,
    skip_empty_lines: true,
    relax_column_count: false,
    bom: true,
  });
  parser.on('data', ({ record, info }: { record: Record<string, string>; info: { lines: number } }) =>
    rows.push({ line: info.lines, value: csvRecord(record) }),
  );
  parser.on('error', (err) => {
    failure ??= err;
  });
  // The parser works as it is written to, synchronously, so a piece is parsed before the next is read.
  // After an error the rest is only decoded: invalid UTF-8 anywhere is reported first.
  for await (const text of pieces) if (!failure) parser.write(text);
  if (!failure) {
    parser.end();
    await finished(parser).catch(() => undefined);
  }
  if (failure instanceof ImportFileError) throw failure;
  if (failure) {
    if (!header) throw notReviews([]);
    const e = failure as CsvError & { lines?: number };
    throw new ImportFileError([{ line: e.lines, field: '', reason: `not valid CSV: ${e.message}` }]);
  }
  return rows;
}
