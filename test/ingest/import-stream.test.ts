// Every format is imported as a stream (NDJSON by lines, a JSON document element by element, CSV
// through csv-parse's stream): a file larger than the importer's whole heap imports (a whole-file
// decode would need the file as one string in that heap), and invalid bytes or a broken row far into
// the file, past the first read, are reported at their exact byte or line with nothing written.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { demoBusiness } from '../../src/demo/index.js';
import { ImportFileError, importFile } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { GOOD_RECORD, importedState, importFileIn, rawDb, tempDir } from '../helpers/index.js';

const run = promisify(execFile);
const dir = tempDir();
const dbFile = join(dir, 'stream.db');
let store: Store;
let raw: Kysely<any>;

/** Review i as one NDJSON line; `pad` spaces of JSON whitespace make the line long without making the row big. */
const line = (i: number, pad = 0) =>
  JSON.stringify({ ...GOOD_RECORD, source_review_id: `s-${i}`, text: `Review ${i}: fixed the leak, été.` }).replace(
    /,/,
    `,${' '.repeat(pad)}`,
  );

/** Writes `rows` lines made by `make` to `name` in the test dir, a line at a time (never the file as one string). */
function writeLines(name: string, rows: number, make: (i: number) => string, head = '', tail = ''): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  for (let i = 0; i < rows; i++) writeSync(fd, make(i));
  writeSync(fd, tail);
  closeSync(fd);
  return path;
}

/** Imports `path` in a child whose heap is `heapMb`, through the CLI; its stdout. */
async function importInSmallHeap(path: string, heapMb: number): Promise<string> {
  assert.ok(statSync(path).size > 1.4 * heapMb * 2 ** 20, 'the file is well larger than the heap');
  const { stdout } = await run(process.execPath, [
    `--max-old-space-size=${heapMb}`,
    '--import',
    'tsx',
    'src/cli/main.ts',
    'import',
    path,
    '--no-analyze',
    '--database-url',
    dbFile,
  ]);
  return stdout;
}

const storedCount = async (prefix: string) => {
  const [{ n }] = await raw
    .selectFrom('reviews')
    .where('source_review_id', 'like', `${prefix}%`)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .execute();
  return Number(n);
};

/** The errors importing `path` throws; asserts nothing was written. */
async function refused(path: string): Promise<ImportFileError['errors']> {
  const before = await importedState(raw);
  let errors: ImportFileError['errors'] = [];
  await assert.rejects(importFile(store, path), (err) => {
    assert.ok(err instanceof ImportFileError, String(err));
    errors = err.errors;
    return true;
  });
  assert.equal(await importedState(raw), before, 'nothing was written');
  return errors;
}

describe('streamed imports', () => {
  before(async () => {
    store = await Store.open(dbFile);
    raw = rawDb(dbFile);
    await store.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
  });
  after(async () => {
    await raw.destroy();
    await store.close();
  });

  test('a file larger than the importer’s heap imports in one transaction', async () => {
    const HEAP_MB = 96;
    const ROWS = 1_500;
    const path = writeLines('large.ndjson', ROWS, (i) => `${line(i, 100_000)}\n`);
    assert.match(await importInSmallHeap(path, HEAP_MB), new RegExp(`ndjson: ${ROWS} added`));
    assert.equal(await storedCount('s-'), ROWS);
  });

  test('a JSON array on one line, larger than the importer’s heap, imports in one transaction', async () => {
    const HEAP_MB = 96;
    const ROWS = 1_500;
    // JSON.stringify writes the whole array on one line: the file is one line of 150 MB.
    const path = writeLines('large.json', ROWS, (i) => `${i ? ',' : ''}${line(i, 100_000).replace('"s-', '"j-')}`, '[', ']');
    assert.match(await importInSmallHeap(path, HEAP_MB), new RegExp(`json: ${ROWS} added`));
    assert.equal(await storedCount('j-'), ROWS);
  });

  test('a CSV file larger than the importer’s heap imports in one transaction', async () => {
    const HEAP_MB = 96;
    const ROWS = 1_500;
    // The note column is blank (white space only), which the importer drops: the rows stay small.
    const path = writeLines(
      'large.csv',
      ROWS,
      (i) => `google,c-${i},Ana P.,5,2025-03-04,"Review ${i}: fixed the leak, été.",${' '.repeat(100_000)}\n`,
      'source,source_review_id,author,rating,date,text,note\n',
    );
    assert.match(await importInSmallHeap(path, HEAP_MB), new RegExp(`csv: ${ROWS} added`));
    assert.equal(await storedCount('c-'), ROWS);
  });

  test('a broken JSON element or separator far into the file is named by its line, and nothing is written', async () => {
    // Pretty-printed, one member a line: element i spans lines 2 + 3i to 4 + 3i.
    const element = (i: number) =>
      `${i ? ',\n' : ''}  {\n    "source": "google", "source_review_id": "b-${i}", "author": "A", "rating": 5, "date": "2025-03-04"${' '.repeat(20_000)}\n  }`;
    const rows = 300;
    const broken = 250;
    const bad = writeLines(
      'broken.json',
      rows,
      (i) => (i === broken ? element(i).replace('"rating": 5', '"rating": 5,,') : element(i)),
      '[\n',
      '\n]\n',
    );
    assert.deepEqual(await refused(bad), [
      {
        line: 3 + 3 * broken,
        field: '',
        reason: `not valid JSON: Expected double-quoted property name (item ${broken})`,
      },
    ]);
    const missingComma = writeLines(
      'no-comma.json',
      rows,
      (i) => (i === broken ? element(i).replace(/^,/, '') : element(i)),
      '[\n',
      '\n]\n',
    );
    assert.deepEqual(await refused(missingComma), [
      { line: 2 + 3 * broken, field: '', reason: `not valid JSON: Expected ',' or ']' after array element` },
    ]);
  });

  test('a broken CSV row far into the file is named by its line, and nothing is written', async () => {
    const path = writeLines(
      'ragged.csv',
      400,
      (i) => `google,r-${i},Ana P.,5,2025-03-04,"Review ${i}${' '.repeat(10_000)}"${i === 333 ? ',extra' : ''}\n`,
      'source,source_review_id,author,rating,date,text\n',
    );
    const errors = await refused(path);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].line, 335);
    assert.match(errors[0].reason, /^not valid CSV: Invalid Record Length: columns length is 6, got 7 on line 335/);
  });

  test('a JSON document with its reviews in a "reviews" member, beside other members, imports', async () => {
    const doc = { next: 'x', reviews: [line(40_000), line(40_001)].map((l) => JSON.parse(l)), meta: { reviews: [1] } };
    const report = await importFile(store, importFileIn(dir, 'wrapped.json', JSON.stringify(doc)));
    assert.deepEqual([report.format, report.added], ['json', 2]);
  });

  test('invalid UTF-8 far into a one-line JSON document is reported at its byte and line, and nothing is written', async () => {
    const parts = Array.from({ length: 60 }, (_, i) => Buffer.from(`${i ? ',' : '['}${line(50_000 + i, 50_000)}`));
    const bad = 41;
    const at = parts[bad].indexOf('Review') + 3;
    parts[bad][at] = 0xff;
    const offset = parts.slice(0, bad).reduce((n, b) => n + b.length, 0) + at;
    const path = importFileIn(dir, 'bad-far.json', Buffer.concat([...parts, Buffer.from(']')]));
    assert.deepEqual(await refused(path), [{ line: 1, field: '', reason: `invalid UTF-8 at byte ${offset}; save the file as UTF-8` }]);
  });

  test('invalid UTF-8 past the first read is reported at its byte and line, and nothing is written', async () => {
    const before = await importedState(raw);
    // Lines of 50 kB: the bad byte lies several 1 MB reads into the file, and a two-byte character
    // (é) straddles read boundaries on the way.
    const lines = Array.from({ length: 120 }, (_, i) => Buffer.from(`${line(10_000 + i, 50_000)}\n`));
    const bad = 97;
    const at = lines[bad].indexOf('Review') + 3;
    lines[bad][at] = 0xff;
    const offset = lines.slice(0, bad).reduce((n, b) => n + b.length, 0) + at;
    const path = importFileIn(dir, 'bad-far.ndjson', Buffer.concat(lines));
    await assert.rejects(importFile(store, path), (err) => {
      assert.ok(err instanceof ImportFileError);
      assert.deepEqual(err.errors, [{ line: bad + 1, field: '', reason: `invalid UTF-8 at byte ${offset}; save the file as UTF-8` }]);
      return true;
    });
    assert.equal(await importedState(raw), before);
  });

  test('a character split across two reads decodes as in a whole-file decode, in lines and in a one-line document', async () => {
    // The importer reads 1 MiB at a time: the first é of this line starts on the read's last byte.
    const first = line(20_000);
    const pad = 2 ** 20 - 1 - Buffer.from(first).indexOf(Buffer.from('é'));
    const lines = `${line(20_000, pad)}\n${line(20_001)}\n`;
    assert.equal(Buffer.from(lines)[2 ** 20 - 1], 0xc3);
    const report = await importFile(store, importFileIn(dir, 'straddle.ndjson', lines), { now: '2026-01-02T00:00:00.000Z' });
    assert.equal(report.added, 2);
    const texts = await raw.selectFrom('reviews').select('text').where('source_review_id', 'in', ['s-20000', 's-20001']).execute();
    assert.deepEqual(texts.map((t) => t.text).sort(), ['Review 20000: fixed the leak, été.', 'Review 20001: fixed the leak, été.']);
    // The same as one JSON array on one line: `[` shifts the é one byte, so one less byte of padding.
    const doc = `[${line(20_002, pad - 1)},${line(20_003)}]`;
    assert.equal(Buffer.from(doc)[2 ** 20 - 1], 0xc3);
    const json = await importFile(store, importFileIn(dir, 'straddle.json', doc), { now: '2026-01-02T00:00:00.000Z' });
    assert.equal(json.added, 2);
    const jsonTexts = await raw.selectFrom('reviews').select('text').where('source_review_id', 'in', ['s-20002', 's-20003']).execute();
    assert.deepEqual(jsonTexts.map((t) => t.text).sort(), ['Review 20002: fixed the leak, été.', 'Review 20003: fixed the leak, été.']);
  });
});
