import type { Kysely, RawBuilder, SelectQueryBuilder, Transaction } from 'kysely';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Queryable = Kysely<Database> | Transaction<Database>;

export interface Listener {
  stop(): Promise<void>;
}

/**
 * What differs between the engines, as named capabilities and behaviours (the way Kysely's
 * `DialectAdapter` does it): the rest of the store asks for a capability, never for an engine's name.
 */
export interface DialectAdapter {
  /** Several processes may use this database at once (PostgreSQL): shared state must live in it. */
  readonly sharedByProcesses: boolean;
  /** One process owns the database (SQLite): at start, claims of a killed run can be released at once. */
  readonly releasesClaimsOnStart: boolean;
  /**
   * A query runs on the database server and its rows arrive while the event loop turns (PostgreSQL): a
   * long read needs no pauses of its own, and one query for many rows lets the server send while this
   * thread decodes. False where a query runs on the calling thread (SQLite): a long read is taken in steps.
   */
  readonly readsOffThread: boolean;
  readonly columnTypes: { autoId: string; idRef: string; bytes: string };
  /** The smaller of two numbers (`least` / `min`). */
  readonly least: RawBuilder<unknown>;
  /** The length in bytes of a bytes value, without reading it (`octet_length` / `length`). */
  readonly byteLength: RawBuilder<unknown>;
  /** Where the data lives, safe to log (no password). */
  readonly location: string;
  /** A read-only view of one consistent moment. */
  consistentRead<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** Serialises the transactions that take the lock `name` until they commit; call it before the transaction reads. */
  advisoryLock(trx: Queryable, name: string): Promise<void>;
  /** Delivered to listeners at commit (nothing where no other process can listen). */
  notify(trx: Queryable, channel: string, payload: string): Promise<void>;
  /**
   * Calls `onNotify` on each notification of `channel`, or on anything that may be one (SQLite: each
   * write to its log); null where the engine has neither (callers poll, as they do anyway).
   */
  listen(channel: string, onNotify: () => void, onError: (err: Error) => void): Listener | null;
  /** Rows claimed by one worker are skipped by the others (FOR UPDATE SKIP LOCKED where replicas exist). */
  lockForClaim<Q extends SelectQueryBuilder<Database, any, any>>(q: Q, table?: string): Q;
  /** Holds the rows read until commit. */
  lockRow<Q extends SelectQueryBuilder<Database, any, any>>(q: Q): Q;
  /**
   * Copies committed writes from the write-ahead log back into the database where the engine keeps one
   * (SQLite), without waiting for readers; nothing elsewhere.
   */
  checkpoint(): Promise<void>;
  /**
   * This connection (opened with `checkpointsElsewhere`) has committed writes since the last call that
   * answered true: another connection should `checkpoint` them. Always false where nothing needs it.
   */
  writesToCheckpoint(): boolean;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Connections in the pool (PostgreSQL). */
  poolSize?: number;
  /**
   * This connection's commits never copy the write-ahead log back (SQLite): a commit that happens to
   * cross the log's size limit would otherwise copy and sync megabytes on the committing thread, the
   * server's event loop. Another connection (the store writer's) calls `checkpoint` instead.
   */
  checkpointsElsewhere?: boolean;
}

export interface Connected {
  db: Db;
  adapter: DialectAdapter;
}
