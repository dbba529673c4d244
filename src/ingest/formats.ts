import { readCsvRows } from './csv.js';
import type { Line } from './decode.js';
import { ImportFileError, type RowError, type RowRef } from './errors.js';
import { googleToRecord, isGoogleReview } from './google.js';
import { NotJsonError, readJsonItems } from './json-items.js';

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

/** A file, readable as many times as detection needs: as lines, or as text in pieces that may end anywhere. */
export interface FileSource {
  lines: () => AsyncIterable<Line>;
  text: () => AsyncIterable<string>;
}

const fileError = (reason: string) => new ImportFileError([{ field: '', reason }]);

/**
 * A file's rows, in the format from the flag, else the file name (checked against the content), else
 * the content. Every format is read as it streams in, so a file's size is bounded by its rows, never
 * by one string; detection that needs more than the first character reads the file again. A file
 * whose content fits neither its name nor any format is an error, as is an empty file or one without
 * a single review row: an import of nothing is never what was meant (with --sync it would look like
 * "every review is gone").
 */
export async function readFormatted(file: FileSource, fileName: string, flag?: Format): Promise<ParsedFile> {
  if (namedNdjson(fileName, flag)) return someRows(await parseNdjsonLines(file.lines(), fileName, flag));
  const first = await firstCharacter(file.text());
  if (first === '') throw fileError('the file is empty');
  if (flag) return someRows(flag === 'json' || flag === 'google' ? await parseJson(file, flag) : await parseCsv(file));
  const looksJson = first === '[' || first === '{';
  if (/\.csv$/i.test(fileName)) {
    if (looksJson && (await isJsonDocument(file)))
      throw fileError(`${fileName} is named .csv but holds JSON; rename it to .json or pass --format json`);
    return someRows(await parseCsv(file));
  }
  if (/\.json$/i.test(fileName)) {
    try {
      return someRows(await parseJson(file));
    } catch (err) {
      if (err instanceof NotJsonError && (await isJsonLines(file.lines())))
        throw fileError(`${fileName} is named .json but holds one JSON value per line; rename it to .ndjson or pass --format ndjson`);
      throw err;
    }
  }
  if (looksJson) {
    try {
      return someRows(await parseJson(file));
    } catch (err) {
      if (!(err instanceof NotJsonError)) throw err;
    }
    if (first === '{') return someRows(await parseNdjsonLines(file.lines(), fileName));
  }
  return someRows(await parseCsv(file));
}

/** The first character that is not white space (as String.trim sees it), or '' when there is none. */
async function firstCharacter(text: AsyncIterable<string>): Promise<string> {
  for await (const piece of text) {
    const at = piece.search(/\S/);
    if (at >= 0) return piece[at];
  }
  return '';
}

/** Every value of a JSON-lines text parses (and there are at least two, so one JSON document is not mistaken for it). */
async function isJsonLines(lines: AsyncIterable<Line>): Promise<boolean> {
  let values = 0;
  for await (const { text } of lines) {
    if (text.trim() === '') continue;
    try {
      JSON.parse(text);
    } catch {
      return false;
    }
    values++;
  }
  return values >= 2;
}

async function isJsonDocument(file: FileSource): Promise<boolean> {
  try {
    await readJsonItems(file.text(), () => undefined);
    return true;
  } catch (err) {
    if (err instanceof NotJsonError) return false;
    throw err;
  }
}

/** A file without a single review row is an error. */
function someRows(parsed: ParsedFile): ParsedFile {
  if (parsed.rows.length + parsed.errors.length === 0)
    throw fileError(
      `no reviews in the file (read as ${parsed.format === 'google' ? 'a Google Business Profile export' : parsed.format.toUpperCase()})`,
    );
  return parsed;
}

const NDJSON_NAME = /\.(ndjson|jsonl)$/i;
const arrayInNdjson = (fileName: string) =>
  `${fileName} is named .${fileName.split('.').pop()} but holds a JSON array, not one JSON object per line; rename it to .json or pass --format json`;

/** Whether the flag, or else the file's name, says NDJSON: such a file is parsed a line at a time as it is read. */
export const namedNdjson = (fileName: string, flag?: Format) => (flag ? flag === 'ndjson' : NDJSON_NAME.test(fileName));

/** A file `namedNdjson` says is NDJSON, a line at a time as the lines are read. */
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

/**
 * A JSON document's reviews (an array, or an object's "reviews" array) as its elements are read; a
 * Google Business Profile export when the flag says so or, without a flag, when its first review is one.
 */
async function parseJson(file: FileSource, flag?: 'json' | 'google'): Promise<ParsedFile> {
  const parsed: ParsedFile = { format: flag ?? 'json', rows: [], errors: [] };
  let format = flag;
  const doc = await readJsonItems(file.text(), ({ index, value }) => {
    format ??= isGoogleReview(value) ? 'google' : 'json';
    if (format !== 'google') return parsed.rows.push({ index, value });
    const mapped = googleToRecord(value);
    if ('errors' in mapped) parsed.errors.push(...mapped.errors.map((e) => ({ index, ...e })));
    else parsed.rows.push({ index, value: mapped.record });
  });
  const items = Array.isArray(doc) ? doc : (doc as { reviews?: unknown })?.reviews;
  if (!Array.isArray(items))
    throw fileError(
      `expected a JSON array of reviews or an object with a "reviews" array (got ${doc === null ? 'null' : Array.isArray(doc) ? 'an array' : typeof doc})`,
    );
  parsed.format = format ?? 'json';
  return parsed;
}

async function parseCsv(file: FileSource): Promise<ParsedFile> {
  return { format: 'csv', rows: await readCsvRows(file.text()), errors: [] };
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
