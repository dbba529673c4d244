import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Connected, ConnectOptions, DialectAdapter } from '../dialect.js';
import type { Database } from '../schema.js';
import { PgListener } from './listener.js';

// int8 (counts, identity ids) as JS numbers: our values stay far below 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: any) {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/** PostgreSQL: several processes (replicas) share it, so claims skip locked rows and revisions are notified. */
export function connectPostgres(url: string, opts: ConnectOptions): Connected {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types: pgTypes as any, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const location = new URL(url);
  if (location.password) location.password = '***';
  const adapter: DialectAdapter = {
    sharedByProcesses: true,
    releasesClaimsOnStart: false,
    readsOffThread: true,
    columnTypes: { autoId: 'bigint generated always as identity primary key', idRef: 'bigint', bytes: 'bytea' },
    byteLength: sql.raw('octet_length'),
    least: sql.raw('least'),
    location: location.toString(),
    consistentRead: (fn) => db.transaction().setIsolationLevel('repeatable read').execute(fn),
    async advisoryLock(trx, name) {
      await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
    },
    async notify(trx, channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(trx);
    },
    listen(channel, onNotify, onError) {
      const listener = new PgListener(url, channel, onNotify, onError);
      listener.start();
      return listener;
    },
    lockForClaim: (q, table) => (table ? q.forUpdate(table) : q.forUpdate()).skipLocked() as typeof q,
    lockRow: (q) => q.forUpdate() as typeof q,
    checkpoint: async () => {},
    writesToCheckpoint: () => false,
    close: async () => {},
  };
  return { db, adapter };
}
