import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { demoBusiness } from '../../src/demo/index.js';
import { ImportFileError, importFile, type RowError } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { GOOD_RECORD, importedState, importFileIn, rawDb, tempDir } from '../helpers/index.js';

const dir = tempDir();
const dbFile = join(dir, 'hostile.db');
let store: Store;
let raw: Kysely<any>;

const good = GOOD_RECORD;

const snapshot = () => importedState(raw);

const file = (name: string, content: string | Buffer) => importFileIn(dir, name, content);

async function expectRejected(path: string, expected: Partial<RowError>[]) {
  const before = await snapshot();
  let errors: RowError[];
  try {
    const report = await importFile(store, path);
    assert.equal(report.written, false, 'nothing may be written');
    errors = report.invalid;
  } catch (err) {
    assert.ok(err instanceof ImportFileError, String(err));
    errors = err.errors;
  }
  for (const e of expected) {
    assert.ok(
      errors.some((x) =>
        Object.entries(e).every(([k, v]) =>
          k === 'reason' ? String(x.reason).includes(String(v)) : (x as unknown as Record<string, unknown>)[k] === v,
        ),
      ),
      `expected an error like ${JSON.stringify(e)}; got ${JSON.stringify(errors)}`,
    );
  }
  assert.equal(await snapshot(), before, 'the database is exactly as it was');
}

describe('import rejects hostile files and writes nothing', () => {
  before(async () => {
    store = await Store.open(dbFile);
    raw = rawDb(dbFile);
    await store.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
    const ok = await importFile(store, file('seed.json', JSON.stringify([good])));
    assert.equal(ok.added, 1);
  });
  after(async () => {
    await raw.destroy();
    await store.close();
  });

  test('wrong types and missing fields, each reported with its item and field', async () => {
    await expectRejected(
      file(
        'types.json',
        JSON.stringify([
          good,
          { ...good, source_review_id: 'g-2', rating: 'five' },
          { source: 'google', source_review_id: 'g-3', rating: 4 },
          42,
        ]),
      ),
      [
        { index: 1, field: 'rating' },
        { index: 2, field: 'author' },
        { index: 2, field: 'date' },
        { index: 3, reason: 'expected an object' },
      ],
    );
  });

  test('ratings 0, 6 and 4.5 are rejected', async () => {
    const lines = [0, 6, 4.5].map((rating, i) => JSON.stringify({ ...good, source_review_id: `r-${i}`, rating }));
    await expectRejected(file('ratings.ndjson', lines.join('\n')), [
      { line: 1, field: 'rating' },
      { line: 2, field: 'rating' },
      { line: 3, field: 'rating' },
    ]);
  });

  test('impossible and malformed dates are rejected', async () => {
    await expectRejected(
      file(
        'dates.json',
        JSON.stringify([
          { ...good, source_review_id: 'd1', date: '2025-02-30' },
          { ...good, source_review_id: 'd2', date: '04/03/2025' },
        ]),
      ),
      [
        { index: 0, field: 'date' },
        { index: 1, field: 'date' },
      ],
    );
  });

  test('duplicate rows in one file name the first occurrence', async () => {
    await expectRejected(file('dupes.ndjson', [good, { ...good, source_review_id: 'x' }, good].map((r) => JSON.stringify(r)).join('\n')), [
      { line: 3, reason: 'duplicate of line 1' },
    ]);
  });

  test('a 5 MB review text is rejected, not truncated', async () => {
    await expectRejected(file('huge.json', JSON.stringify([{ ...good, source_review_id: 'big', text: 'a'.repeat(5 * 1024 * 1024) }])), [
      { index: 0, field: 'text', reason: '5242880 characters' },
    ]);
  });

  test('invalid UTF-8 is reported with its line', async () => {
    const bytes = Buffer.concat([Buffer.from(`${JSON.stringify(good)}\n{"author":"bad `), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    await expectRejected(file('bad-utf8.ndjson', bytes), [{ line: 2, reason: 'invalid UTF-8' }]);
  });

  test('a CSV with a BOM, CRLF, quoted commas and newlines imports exactly (line breaks stored as LF)', async () => {
    const csv =
      '\uFEFFsource,source_review_id,author,rating,date,text,technicians\r\ngoogle,c-1,"Smith, J.",4,2025-05-06,"Line one, with comma\r\nline two ""quoted""",Mike\r\n';
    const report = await importFile(store, file('ok.csv', csv));
    assert.equal(report.format, 'csv');
    assert.equal(report.added, 1, JSON.stringify(report.invalid));
    const row = await raw.selectFrom('reviews').selectAll().where('source_review_id', '=', 'c-1').executeTakeFirstOrThrow();
    assert.equal(row.author, 'Smith, J.');
    assert.equal(row.text, 'Line one, with comma\nline two "quoted"');
    assert.equal(report.cleaned.newlines, 1);
    assert.deepEqual(JSON.parse(row.technicians), ['mike-delgado']);
  });

  test('a CSV row with a bad rating is reported with its line', async () => {
    await expectRejected(file('bad.csv', 'author,rating,date\nA,5,2025-01-01\nB,4.5,2025-01-02\nC,abc,2025-01-03\n'), [
      { line: 3, field: 'rating' },
      { line: 4, field: 'rating' },
    ]);
  });

  test('an unknown technician is an error that says what the profile knows', async () => {
    await expectRejected(file('tech.json', JSON.stringify([{ ...good, source_review_id: 't1', technicians: ['Nobody Known'] }])), [
      { index: 0, field: 'technicians', reason: 'not a technician' },
    ]);
  });

  test('the Google Business Profile shape is detected and mapped', async () => {
    const google = {
      reviews: [
        {
          reviewId: 'AbC123',
          reviewer: { displayName: 'Lee K.' },
          starRating: 'FOUR',
          comment: 'Sarah was great.',
          createTime: '2025-06-01T12:30:00.123456789Z',
          updateTime: '2025-06-02T08:00:00Z',
          reviewReply: { comment: 'Thanks Lee!', updateTime: '2025-06-03T09:00:00Z' },
        },
        { reviewId: 'Bad1', reviewer: { displayName: 'X' }, starRating: 'SIX', createTime: '2025-06-01T00:00:00Z' },
      ],
    };
    await expectRejected(file('google.json', JSON.stringify(google)), [{ index: 1, field: 'starRating' }]);
    const ok = await importFile(store, file('google-ok.json', JSON.stringify({ reviews: [google.reviews[0]] })));
    assert.equal(ok.format, 'google');
    assert.equal(ok.added, 1);
    const row = await raw.selectFrom('reviews').selectAll().where('source_review_id', '=', 'AbC123').executeTakeFirstOrThrow();
    assert.deepEqual(
      [row.rating, row.date, row.owner_reply_text, row.owner_reply_date, row.published_at],
      [4, '2025-06-01', 'Thanks Lee!', '2025-06-03', '2025-06-01T12:30:00.123Z'],
    );
  });

  test('--skip-invalid writes the valid rows and reports the rest', async () => {
    const report = await importFile(
      store,
      file(
        'mixed.ndjson',
        [
          { ...good, source_review_id: 'm1' },
          { ...good, source_review_id: 'm2', rating: 9 },
        ]
          .map((r) => JSON.stringify(r))
          .join('\n'),
      ),
      { skipInvalid: true },
    );
    assert.equal(report.added, 1);
    assert.equal(report.invalid.length, 1);
    assert.equal(report.invalid[0].line, 2);
  });
});
