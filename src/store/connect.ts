import type { Connected, ConnectOptions } from './dialect.js';

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/**
 * The one place a database URL picks an engine: a PostgreSQL URL, otherwise a SQLite file path. Each
 * engine's folder (and its client library) is loaded only when it is the one picked: `pg` alone costs
 * about 0.1 s of a SQLite server's start.
 */
export async function connect(url: string, opts: ConnectOptions = {}): Promise<Connected> {
  if (isPostgresUrl(url)) return (await import('./postgres/index.js')).connectPostgres(url, opts);
  return (await import('./sqlite/index.js')).connectSqlite(url, opts);
}
