import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, Kysely, SqliteDialect, type SqliteDialectConfig, SqliteDriver, sql } from 'kysely';
import { StoreBusyError } from '../../domain/index.js';
import type { Connected, ConnectOptions, DialectAdapter } from '../dialect.js';
import type { Database } from '../schema.js';
import { watchLog } from './log-watch.js';
import { fastRows } from './statements.js';

export { fastRows };

/**
 * SQLite: one process and one writer. Reads of a consistent moment run on a second, read-only
 * connection to the same file (WAL lets it read while the first writes), so a long paged read does not
 * hold the connection every other query waits for.
 */
export function connectSqlite(url: string, opts: ConnectOptions = {}): Connected {
  const file = resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // No busy handler: it would sleep on the calling thread (the server's event loop) while another
  // connection holds the write lock; the driver below waits for the lock asynchronously instead.
  sqlite.pragma('busy_timeout = 0');
  sqlite.pragma('foreign_keys = ON');
  if (opts.checkpointsElsewhere) sqlite.pragma('wal_autocheckpoint = 0');
  const db = new Kysely<Database>({ dialect: new WritingSqliteDialect({ database: fastRows(sqlite) }, () => sqlite.inTransaction) });
  let reader: ReturnType<typeof readerOf> | null = null;
  let checkpointedChanges = 0;
  const adapter: DialectAdapter = {
    sharedByProcesses: false,
    releasesClaimsOnStart: true,
    readsOffThread: false,
    columnTypes: { autoId: 'integer primary key autoincrement', idRef: 'integer', bytes: 'blob' },
    byteLength: sql.raw('length'),
    least: sql.raw('min'),
    location: file,
    consistentRead(fn) {
      reader ??= readerOf(file);
      return reader.consistentRead(fn);
    },
    // Every transaction of this connection already holds the file's write lock (see WritingSqliteDialect).
    advisoryLock: async () => {},
    notify: async () => {},
    // Not a notification of a channel: every write to the file's log, a hint to check (see watchLog).
    listen: (_channel, onNotify, onError) => watchLog(file, onNotify, onError),
    lockForClaim: (q) => q,
    lockRow: (q) => q,
    async checkpoint() {
      sqlite.pragma('wal_checkpoint(PASSIVE)');
    },
    writesToCheckpoint() {
      if (!opts.checkpointsElsewhere) return false;
      const total = sqlite.prepare('select total_changes()').pluck().get() as number;
      const due = total !== checkpointedChanges;
      checkpointedChanges = total;
      return due;
    },
    async close() {
      await reader?.close();
    },
  };
  return { db, adapter };
}

/** How long a write waits for another connection (a CLI import's transaction: about 8 s at 100,000 reviews) to release the lock. */
const LOCK_WAIT_MS = 60_000;

/**
 * The writing connection's dialect. Transactions take the file's write lock when they begin (`begin
 * immediate`): a deferred transaction that has read cannot wait for a write another connection committed
 * after its read (SQLite answers SQLITE_BUSY at once), and the server, its store-writer thread and CLI
 * imports each write through their own connection, so a read-then-write transaction (a claim, a
 * compare-and-set) must hold the lock before it reads. A statement refused for the lock (a `begin
 * immediate` or a write outside a transaction, which has then done nothing) is retried after a timer,
 * so the waiting never blocks the thread; past LOCK_WAIT_MS it fails with StoreBusyError.
 */
class WritingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #inTransaction: () => boolean;
  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.#config = config;
    this.#inTransaction = inTransaction;
  }
  override createDriver() {
    return new WritingSqliteDriver(this.#config, this.#inTransaction);
  }
}

class WritingSqliteDriver extends SqliteDriver {
  readonly #inTransaction: () => boolean;
  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.#inTransaction = inTransaction;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return {
      executeQuery: (query) => this.#whenUnlocked(() => connection.executeQuery(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async #whenUnlocked<T>(run: () => Promise<T>): Promise<T> {
    const until = Date.now() + LOCK_WAIT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
      try {
        return await run();
      } catch (err) {
        const busy = (err as { code?: string }).code?.startsWith('SQLITE_BUSY');
        // Inside a transaction the statement may have done part of its work: only the caller can retry.
        if (!busy || this.#inTransaction()) throw err;
        if (Date.now() >= until) throw new StoreBusyError(LOCK_WAIT_MS);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}

/** As much of the file as SQLite maps at most (SQLITE_MAX_MMAP_SIZE, its default: 2 GiB less 64 KiB). */
const READ_MAP_BYTES = 0x7fff0000;

/**
 * The read-only connection. Each consistent read sees the file through a memory map while it lasts: a
 * full build reads every review and analysis, and without a map each page comes into SQLite's cache by a
 * system call of its own. The map is let go when the read ends, or the pages read would stay in the
 * process's resident memory while it serves. (While mapped, an I/O error reading the file is a SIGBUS,
 * not an error SQLite returns.)
 */
function readerOf(file: string): Pick<DialectAdapter, 'consistentRead' | 'close'> {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: fastRows(sqlite) }) });
  return {
    // Inside the transaction, which holds the connection until it ends. SQLite changes the map only while
    // no page of it is in use: every query here runs to its end (`all`), so none holds one between them.
    consistentRead: (fn) =>
      db.transaction().execute(async (trx) => {
        sqlite.pragma(`mmap_size = ${READ_MAP_BYTES}`);
        try {
          return await fn(trx);
        } finally {
          sqlite.pragma('mmap_size = 0');
        }
      }),
    close: () => db.destroy(),
  };
}
