import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { fastRows } from '../../src/store/sqlite/index.js';
import { tempDir } from '../helpers/index.js';

// The store's SQLite connections read through fastRows (statements prepared once, rows made from arrays):
// what they give must be what better-sqlite3 gives.
function open() {
  const sqlite = new SQLite(join(tempDir(), 'statements.db'));
  sqlite.exec(`create table t (id integer primary key, name text, score real, data blob, note text);
    insert into t values (1, 'ä ☃', 1.5, x'00ff', null), (2, '', -0.25, x'', 'n');`);
  return { sqlite, db: fastRows(sqlite) };
}

test('a reader gives the rows better-sqlite3 gives: every type, key order, a repeated name', () => {
  const { sqlite, db } = open();
  for (const sql of [
    'select * from t order by id',
    'select name, id, name as note2, data from t where id > ? order by id',
    // Two columns of one name: the later wins, as in better-sqlite3's own rows.
    'select id as x, name as x from t order by id',
  ]) {
    const params = sql.includes('?') ? [0] : [];
    const ours = db.prepare(sql).all(params) as Record<string, unknown>[];
    const theirs = sqlite.prepare(sql).all(...params) as Record<string, unknown>[];
    assert.deepEqual(ours, theirs, sql);
    assert.deepEqual(ours.map(Object.keys), theirs.map(Object.keys), `key order of ${sql}`);
  }
  assert.deepEqual(db.prepare('select * from t where id = ?').all([3]), []);
  const [proto] = db.prepare('select 1 as "__proto__"').all([]) as object[];
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value, 1);
});

test('writes report their changes and row id; one SQL text is prepared once', () => {
  const { db } = open();
  const insert = db.prepare('insert into t (name) values (?)');
  assert.equal(insert.reader, false);
  assert.throws(() => insert.all(['y']), /does not return data/, 'as better-sqlite3 answers all() of a write');
  assert.deepEqual(insert.run(['x']), { changes: 1, lastInsertRowid: 3 });
  assert.equal(db.prepare('insert into t (name) values (?)'), insert);
  assert.deepEqual(db.prepare('select count(*) as n from t').all([]), [{ n: 3 }]);
  // The least recently used text is dropped past 128 of them.
  for (let i = 0; i < 128; i++) db.prepare(`select ${i} as n`);
  assert.notEqual(db.prepare('insert into t (name) values (?)'), insert);
});

test('a cached select * follows a schema change; a statement can run again while it is iterated', () => {
  const { sqlite, db } = open();
  const before = db.prepare('select * from t where id = ?').all([1]) as Record<string, unknown>[];
  assert.deepEqual(Object.keys(before[0]), ['id', 'name', 'score', 'data', 'note']);
  sqlite.exec("alter table t add column extra text default 'e'");
  const after = db.prepare('select * from t where id = ?').all([1]) as Record<string, unknown>[];
  assert.deepEqual(after, sqlite.prepare('select * from t where id = ?').all(1));
  assert.equal(after[0].extra, 'e');
  const seen: unknown[] = [];
  for (const row of db.prepare('select id from t order by id').iterate([])) {
    seen.push((row as { id: number }).id, (db.prepare('select id from t order by id').all([]) as unknown[]).length);
  }
  assert.deepEqual(seen, [1, 2, 2, 2]);
});
