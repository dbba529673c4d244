// NDJSON is imported as a stream of lines: a file larger than the importer's whole heap imports (a
// whole-file decode would need the file as one string in that heap), and invalid bytes far into the
// file, past the first read, are reported at their exact byte and line with nothing written.
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

describe('streamed NDJSON import', () => {
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
    const path = join(dir, 'large.ndjson');
    const fd = openSync(path, 'w');
    for (let i = 0; i < ROWS; i++) writeSync(fd, `${line(i, 100_000)}\n`);
    closeSync(fd);
    assert.ok(statSync(path).size > 1.4 * HEAP_MB * 2 ** 20, 'the file is well larger than the heap');
    const { stdout } = await run(process.execPath, [
      `--max-old-space-size=${HEAP_MB}`,
      '--import',
      'tsx',
      'src/cli/main.ts',
      'import',
      path,
      '--no-analyze',
      '--database-url',
      dbFile,
    ]);
    assert.match(stdout, new RegExp(`ndjson: ${ROWS} added`));
    const [{ n }] = await raw
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .execute();
    assert.equal(Number(n), ROWS);
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

  test('a character split across two reads decodes as in a whole-file decode', async () => {
    // The importer reads 1 MiB at a time: the first é of this line starts on the read's last byte.
    const first = line(20_000);
    const pad = 2 ** 20 - 1 - Buffer.from(first).indexOf(Buffer.from('é'));
    const lines = `${line(20_000, pad)}\n${line(20_001)}\n`;
    assert.equal(Buffer.from(lines)[2 ** 20 - 1], 0xc3);
    const report = await importFile(store, importFileIn(dir, 'straddle.ndjson', lines), { now: '2026-01-02T00:00:00.000Z' });
    assert.equal(report.added, 2);
    const texts = await raw.selectFrom('reviews').select('text').where('source_review_id', 'in', ['s-20000', 's-20001']).execute();
    assert.deepEqual(texts.map((t) => t.text).sort(), ['Review 20000: fixed the leak, été.', 'Review 20001: fixed the leak, été.']);
  });
});
