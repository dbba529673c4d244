// Hostile import files: each is refused with a clear reason (and its line or item where it has one)
// and leaves the database exactly as it was; texts that are kept are cleaned and the cleaning reported.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { analyseReviews } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { ImportFileError, importFile, type RowError } from '../../src/ingest/index.js';
import { engine } from '../../src/insights/index.js';
import { Store } from '../../src/store/index.js';
import { GOOD_RECORD, importedState, importFileIn, rawDb, startTestServer, tempDir } from '../helpers/index.js';

const run = promisify(execFile);
const dir = tempDir();
const dbFile = join(dir, 'hostile.db');
let store: Store;
let raw: Kysely<any>;

const good = GOOD_RECORD;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const dump = () => importedState(raw);

const file = (name: string, content: string | Buffer) => importFileIn(dir, name, content);

/** The errors importing `path` reports (file-level or per row); asserts nothing was written. */
async function rejected(path: string): Promise<RowError[]> {
  const before = await dump();
  let errors: RowError[];
  try {
    const report = await importFile(store, path, { analyze: analyseReviews(engine) });
    assert.equal(report.written, false, `nothing may be written for ${path}`);
    errors = report.invalid;
  } catch (err) {
    assert.ok(err instanceof ImportFileError, `a clear import error, not ${String(err)}`);
    errors = err.errors;
  }
  assert.equal(await dump(), before, 'the database is exactly as it was');
  assert.ok(errors.length > 0, 'at least one reason');
  return errors;
}

function expectError(errors: RowError[], like: Partial<RowError>) {
  assert.ok(
    errors.some((x) =>
      Object.entries(like).every(([k, v]) =>
        k === 'reason' ? String(x.reason).includes(String(v)) : (x as unknown as Record<string, unknown>)[k] === v,
      ),
    ),
    `expected an error like ${JSON.stringify(like)}; got ${JSON.stringify(errors).slice(0, 600)}`,
  );
}

const cli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', ...args, '--database-url', dbFile]).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

describe('hostile import files', () => {
  before(async () => {
    store = await Store.open(dbFile);
    raw = rawDb(dbFile);
    await store.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
    assert.equal((await importFile(store, file('seed.json', JSON.stringify([good])))).added, 1);
  });
  after(async () => {
    await raw.destroy();
    await store.close();
  });

  test('empty, blank and null files are errors, never "0 added"', async () => {
    for (const [name, content] of [
      ['empty.json', ''],
      ['blank.csv', ' \n\r\n\t'],
      ['bom-only.ndjson', '\uFEFF'],
      ['nothing.txt', ''],
    ] as const) {
      expectError(await rejected(file(name, content)), { reason: 'the file is empty' });
    }
    expectError(await rejected(file('null.json', 'null')), { reason: 'got null' });
    expectError(await rejected(file('number.json', '42')), { reason: 'got number' });
    expectError(await rejected(file('string.json', '"reviews"')), { reason: 'got string' });
    expectError(await rejected(file('object.json', '{"items": []}')), { reason: 'expected a JSON array of reviews' });
    expectError(await rejected(file('empty-array.json', '[]')), { reason: 'no reviews in the file' });
    expectError(await rejected(file('header-only.csv', 'author,rating,date\n')), { reason: 'no reviews in the file' });
  });

  test('content that fits neither its name nor any format is an error', async () => {
    expectError(await rejected(file('json-in.csv', JSON.stringify([good]))), { reason: 'named .csv but holds JSON' });
    expectError(await rejected(file('array-in.ndjson', JSON.stringify([good]))), { reason: 'holds a JSON array' });
    expectError(
      await rejected(file('lines-in.json', `${JSON.stringify(good)}\n${JSON.stringify({ ...good, source_review_id: 'g-2' })}\n`)),
      { reason: 'one JSON value per line' },
    );
    expectError(await rejected(file('broken.json', '[{"author": "A",')), { reason: 'not valid JSON' });
    expectError(await rejected(file('prose.txt', 'Dear team,\nthanks for the great work last week.\n')), {
      line: 1,
      reason: 'not a CSV of reviews',
    });
    expectError(await rejected(file('wrong-header.csv', 'name,stars,when\nAna,5,2025-01-01\n')), { reason: 'lacks author, rating, date' });
    expectError(await rejected(file('ragged.csv', 'author,rating,date\nAna,5,2025-01-01,extra\n')), { reason: 'not valid CSV' });
  });

  test('encodings: UTF-16, Latin-1 bytes inside UTF-8, and a UTF-8 BOM (accepted)', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify([good]), 'utf16le')]);
    expectError(await rejected(file('utf16.json', utf16)), { reason: 'UTF-16' });
    const mixed = Buffer.concat([
      Buffer.from(`author,rating,date,text\nAna,5,2025-01-01,fine\nJos`),
      Buffer.from([0xe9]),
      Buffer.from(',4,2025-01-02,caf\u00e9\n'),
    ]);
    expectError(await rejected(file('latin1.csv', mixed)), { line: 3, reason: 'invalid UTF-8' });
    const report = await importFile(store, file('bom.json', `\uFEFF${JSON.stringify([{ ...good, source_review_id: 'bom-1' }])}`));
    assert.equal(report.added, 1);
  });

  test('wrong types are reported per item and field', async () => {
    const rows = [
      { ...good, source_review_id: 't1', rating: '5' },
      { ...good, source_review_id: 't2', author: 42 },
      { ...good, source_review_id: 't3', verified: 'yes' },
      { ...good, source_review_id: 't4', technicians: 'Mike' },
      { ...good, source_review_id: 't5', owner_reply: 'thanks!' },
      { ...good, source_review_id: 't6', text: ['a', 'b'] },
      { ...good, source_review_id: 't7', date: 20250304 },
      [good],
      null,
    ];
    const errors = await rejected(file('types.json', JSON.stringify(rows)));
    for (const [index, field] of [
      [0, 'rating'],
      [1, 'author'],
      [2, 'verified'],
      [3, 'technicians'],
      [4, 'owner_reply'],
      [5, 'text'],
      [6, 'date'],
    ] as const)
      expectError(errors, { index, field });
    expectError(errors, { index: 7, reason: 'expected an object' });
    expectError(errors, { index: 8, reason: 'expected an object' });
  });

  test('deep nesting is refused without exhausting the stack', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expectError(await rejected(file('deep-field.json', `[{"author":"A","rating":5,"date":"2025-01-01","text":${deep}}]`)), {
      index: 0,
      field: 'text',
      reason: 'an array of 1',
    });
    expectError(await rejected(file('deep-doc.json', `[${deep}]`)), { index: 0, reason: 'expected an object' });
    expectError(
      await rejected(
        file(
          'deep-object.json',
          `[{"author":"A","rating":5,"date":"2025-01-01","owner_reply":${'{"text":'.repeat(50_000)}"x"${'}'.repeat(50_000)}}]`,
        ),
      ),
      { index: 0, field: 'owner_reply.text' },
    );
  });

  test('huge fields are refused with their size, not truncated', async () => {
    expectError(
      await rejected(file('huge-text.ndjson', JSON.stringify({ ...good, source_review_id: 'h1', text: 'x'.repeat(3_000_000) }))),
      { line: 1, field: 'text', reason: '3000000 characters' },
    );
    expectError(
      await rejected(file('huge-author.ndjson', JSON.stringify({ ...good, source_review_id: 'h2', author: 'y'.repeat(100_000) }))),
      { line: 1, field: 'author', reason: '100000 characters' },
    );
    expectError(
      await rejected(file('huge-id.csv', `source,source_review_id,author,rating,date\ngoogle,${'z'.repeat(5000)},A,5,2025-01-01\n`)),
      { line: 2, field: 'source_review_id' },
    );
  });

  test('dates before 1995 or more than a day ahead are refused with line and reason, in every date field', async () => {
    const rows = [
      { ...good, source_review_id: 'd1', date: '0001-01-01' },
      { ...good, source_review_id: 'd2', date: '9999-12-31' },
      { ...good, source_review_id: 'd3', date: '1994-12-31' },
      { ...good, source_review_id: 'd4', date: day(3) },
      { ...good, source_review_id: 'd5', owner_reply: { text: 'Thanks', date: '9999-12-31' } },
      { ...good, source_review_id: 'd6', published_at: '0001-01-01T00:00:00Z' },
      { ...good, source_review_id: 'd7', updated_at: '2999-01-01T00:00:00Z' },
    ];
    const errors = await rejected(file('dates.ndjson', rows.map((r) => JSON.stringify(r)).join('\n')));
    expectError(errors, { line: 1, field: 'date', reason: 'before 1995-01-01' });
    expectError(errors, { line: 2, field: 'date', reason: 'more than a day after the import' });
    expectError(errors, { line: 3, field: 'date', reason: 'before 1995-01-01' });
    expectError(errors, { line: 4, field: 'date', reason: 'more than a day after the import' });
    expectError(errors, { line: 5, field: 'owner_reply.date', reason: 'more than a day after' });
    expectError(errors, { line: 6, field: 'published_at', reason: 'before 1995-01-01' });
    expectError(errors, { line: 7, field: 'updated_at', reason: 'more than a day after' });
    // The edges are accepted: the first day, and tomorrow (a reviewer ahead of UTC).
    const edges = await importFile(
      store,
      file(
        'date-edges.json',
        JSON.stringify([
          { ...good, source_review_id: 'e1', date: '1995-01-01' },
          { ...good, source_review_id: 'e2', date: day(1) },
        ]),
      ),
    );
    assert.equal(edges.added, 2, JSON.stringify(edges.invalid));
  });

  test('--skip-invalid writes the valid rows and reports the out-of-range one with its line', async () => {
    const report = await importFile(
      store,
      file(
        'skip.ndjson',
        [
          { ...good, source_review_id: 's1' },
          { ...good, source_review_id: 's2', date: '0001-01-01' },
        ]
          .map((r) => JSON.stringify(r))
          .join('\n'),
      ),
      { skipInvalid: true },
    );
    assert.equal(report.added, 1);
    assert.deepEqual(
      report.invalid.map((e) => [e.line, e.field]),
      [[2, 'date']],
    );
  });

  test('texts are stored clean: controls stripped, one U+FFFD per lone surrogate, LF line breaks, NFC; the summary counts each kind', async () => {
    const rows = [
      { ...good, source_review_id: 'c1', author: 'Null\u0000 Byte', text: 'Bell\u0007 and tab\tkept\u001b[31m', title: 'Esc\u001b' },
      { ...good, source_review_id: 'c2', author: 'Lone \ud800 surrogate', text: 'Pair 😀 kept, lone \udc00 replaced' },
      {
        ...good,
        source_review_id: 'c3',
        text: 'Line one\r\nline two\rline three',
        owner_reply: { text: 'Thanks\r\nagain', date: '2025-03-05' },
      },
      { ...good, source_review_id: 'c4', author: 'Jose\u0301', text: 'cafe\u0301 with C1\u0085 control' },
    ];
    const report = await importFile(store, file('dirty.json', JSON.stringify(rows)));
    assert.equal(report.added, 4, JSON.stringify(report.invalid));
    assert.deepEqual(report.cleaned, { controls: 2, surrogates: 1, newlines: 1, nfc: 1 });
    const row = (id: string) => raw.selectFrom('reviews').selectAll().where('source_review_id', '=', id).executeTakeFirstOrThrow();
    const c1 = await row('c1');
    assert.deepEqual([c1.author, c1.text, c1.title], ['Null Byte', 'Bell and tab\tkept[31m', 'Esc']);
    const c2 = await row('c2');
    assert.deepEqual([c2.author, c2.text], ['Lone \ufffd surrogate', 'Pair 😀 kept, lone \ufffd replaced']);
    const c3 = await row('c3');
    assert.deepEqual([c3.text, c3.owner_reply_text], ['Line one\nline two\nline three', 'Thanks\nagain']);
    const c4 = await row('c4');
    assert.deepEqual([c4.author, c4.text], ['Jos\u00e9', 'caf\u00e9 with C1 control']);
    // A text of nothing but controls is no author at all.
    expectError(
      await rejected(file('only-controls.json', JSON.stringify([{ ...good, source_review_id: 'c5', author: '\u0000\u0001\u0002' }]))),
      { index: 0, field: 'author' },
    );
  });

  test('formula-looking cells and prototype keys are plain data', async () => {
    const csv =
      'source,source_review_id,author,rating,date,text,__proto__,constructor\ngoogle,f1,"=HYPERLINK(""http://evil.example"")",5,2025-01-02,"+1 @SUM(A1) -2",x,y\n';
    assert.equal((await importFile(store, file('formula.csv', csv))).added, 1);
    const f1 = await raw.selectFrom('reviews').selectAll().where('source_review_id', '=', 'f1').executeTakeFirstOrThrow();
    assert.deepEqual([f1.author, f1.text, f1.verified], ['=HYPERLINK("http://evil.example")', '+1 @SUM(A1) -2', 1]);
    const proto = `[{"source":"google","source_review_id":"p1","author":"P","rating":4,"date":"2025-01-03","__proto__":{"verified":false,"rating":1}}]`;
    assert.equal((await importFile(store, file('proto.json', proto))).added, 1);
    const p1 = await raw.selectFrom('reviews').selectAll().where('source_review_id', '=', 'p1').executeTakeFirstOrThrow();
    assert.deepEqual([p1.rating, p1.verified, p1.published], [4, 1, 1]);
    assert.equal(({} as Record<string, unknown>).verified, undefined, 'no prototype was touched');
  });

  test('through the CLI: exit codes, messages and the cleaning summary', async () => {
    const before = await dump();
    // The refused ones side by side (each is a Node start-up).
    const [empty, nul, dates] = await Promise.all([
      cli(file('cli-empty.json', '')),
      cli(file('cli-null.json', 'null')),
      cli(
        file(
          'cli-dates.ndjson',
          [
            JSON.stringify({ ...good, source_review_id: 'x1', date: '0001-01-01' }),
            JSON.stringify({ ...good, source_review_id: 'x2', date: '9999-12-31' }),
          ].join('\n'),
        ),
      ),
    ]);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /the file is empty/);
    assert.match(empty.stderr, /nothing was imported/);
    assert.equal(nul.code, 1);
    assert.match(nul.stderr, /expected a JSON array of reviews.*got null/);
    assert.equal(dates.code, 1);
    assert.match(dates.stderr, /line 1: date: 0001-01-01 is before 1995-01-01/);
    assert.match(dates.stderr, /line 2: date: 9999-12-31 is more than a day after the import/);
    assert.equal(await dump(), before, 'refused imports wrote nothing');
    const dirty = await cli(file('cli-dirty.ndjson', JSON.stringify({ ...good, source_review_id: 'x3', text: 'NUL\u0000 here' })));
    assert.equal(dirty.code, 0, dirty.stderr);
    assert.match(dirty.stdout, /1 added/);
    assert.match(dirty.stdout, /cleaned: 1 review had control characters removed/);
  });

  test('the pages and feeds serve the cleaned text: no raw control bytes, one U+FFFD', async () => {
    await store.close();
    const server = await startTestServer({ DATABASE_URL: dbFile, REVIEWCAST_DEMO_IF_EMPTY: false });
    try {
      const all = (await (await fetch(`${server.url}/reviews.json`)).json()) as { reviews: { id: string; author: string }[] };
      const lone = all.reviews.find((r) => r.author.startsWith('Lone'))! as { id: string; author: string; text: string };
      assert.deepEqual(
        [lone.author, lone.text],
        ['Lone \ufffd surrogate', 'Pair 😀 kept, lone \ufffd replaced'],
        'one U+FFFD for each lone surrogate',
      );
      const page = await (await fetch(`${server.url}/reviews/${lone.id}`)).text();
      assert.match(page, /Lone \ufffd surrogate/);
      assert.doesNotMatch(page, /\ufffd\ufffd/, 'never three U+FFFD for one surrogate');
      for (const path of ['/', `/reviews/${lone.id}`, '/feed.xml', '/api/feed.json', '/reviews.json']) {
        const body = await (await fetch(`${server.url}${path}`)).text();
        assert.doesNotMatch(body, /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/, `${path} has no raw control characters`);
      }
    } finally {
      await server.close();
      store = await Store.open(dbFile);
    }
  });
});
