import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, Kysely, SqliteDialect, type SqliteDialectConfig, SqliteDriver, sql } from 'kysely';
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
  const db = new Kysely<Database>({ dialect: new WritingSqliteDialect({ database: sqlite }) });
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
    // Every transaction of this connection already holds the file's write lock (see WritingSqliteDialect).
    advisoryLock: async () => {},
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

/**
 * Transactions that take the file's write lock when they begin (`begin immediate`), waiting for it up to
 * busy_timeout. A deferred transaction that has read cannot wait for a write another connection committed
 * after its read: SQLite answers SQLITE_BUSY at once, busy_timeout or not. The server, its store-writer
 * thread and CLI imports each write through their own connection, so a read-then-write transaction (a
 * claim, a compare-and-set) must hold the lock before it reads. Only one process writes a SQLite store,
 * so the serialisation costs nothing the engine did not already impose.
 */
class WritingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

function readerOf(file: string): Kysely<Database> {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
