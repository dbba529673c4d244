import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Connected, DialectAdapter } from '../dialect.js';
import type { Database } from '../schema.js';

export const isSqliteUrl = (url: string) => !/^postgres(ql)?:\/\//i.test(url);

/**
 * SQLite: one process and one writer. Reads of a consistent moment run on a second, read-only
 * connection to the same file (WAL lets it read while the first writes), so a long paged read does not
 * hold the connection every other query waits for.
 */
export function connectSqlite(url: string): Connected {
  const file = resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  let reader: Kysely<Database> | null = null;
  const adapter: DialectAdapter = {
    sharedByProcesses: false,
    releasesClaimsOnStart: true,
    columnTypes: { autoId: 'integer primary key autoincrement', idRef: 'integer', bytes: 'blob' },
    least: sql.raw('min'),
    location: file,
    consistentRead(fn) {
      reader ??= readerOf(file);
      return reader.transaction().execute(fn);
    },
    // The file's write lock, taken before the transaction reads: a deferred transaction that has read
    // cannot wait for another connection's write (SQLite answers SQLITE_BUSY at once, busy_timeout or
    // not), and the CLI, the store-writer thread and the server each write through their own connection.
    advisoryLock: async (trx) => {
      await sql`update revisions set id = id where 0`.execute(trx);
    },
    notify: async () => {},
    listen: () => null,
    lockForClaim: (q) => q,
    lockRow: (q) => q,
    async close() {
      await reader?.destroy();
    },
  };
  return { db, adapter };
}

function readerOf(file: string): Kysely<Database> {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
