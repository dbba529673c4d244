import type { Connected, ConnectOptions } from './dialect.js';
import { connectPostgres, isPostgresUrl } from './postgres/index.js';
import { connectSqlite } from './sqlite/index.js';

/** The one place a database URL picks an engine: a PostgreSQL URL, otherwise a SQLite file path. */
export function connect(url: string, opts: ConnectOptions = {}): Connected {
  return isPostgresUrl(url) ? connectPostgres(url, opts) : connectSqlite(url, opts);
}
