import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Connection {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Connection string for PostgreSQL (LISTEN needs its own client), file path for SQLite. */
  url: string;
}

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

// int8 (counts, identity ids) as JS numbers: our values stay far below 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: any) {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

export function connect(url: string, opts: { poolSize?: number } = {}): Connection {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types: pgTypes as any, connectionTimeoutMillis: 5_000 });
    // An idle client that loses its server must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', url };
  }
  const file = resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), dialect: 'sqlite', url: file };
}

/**
 * A second, read-only SQLite connection to the same file (WAL lets it read while the first writes):
 * long paged reads run on it without holding the connection every other query waits for.
 */
export function connectReader(file: string): Kysely<Database> {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
