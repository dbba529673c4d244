import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';

/**
 * A connection of its own to a store's database, for tests and benches that assert on (or seed) what
 * is stored in ways the store's methods do not offer. The application never does this: only the
 * store touches the database. Close it with `destroy()`.
 */
export function rawDb(url: string): Kysely<any> {
  if (/^postgres(ql)?:\/\//i.test(url))
    return new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
  const file = resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
  mkdirSync(dirname(file), { recursive: true });
  const db = new SQLite(file);
  db.pragma('busy_timeout = 5000');
  return new Kysely<any>({ dialect: new SqliteDialect({ database: db }) });
}
