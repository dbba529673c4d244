import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests may use (CI starts one); unset locally means the PostgreSQL half is skipped. */
export const PG_URL = process.env.REVIEWCAST_TEST_PG_URL ?? null;

export const PG_SKIP = PG_URL
  ? false
  : 'PostgreSQL tests skipped: set REVIEWCAST_TEST_PG_URL (CI starts a cluster with scripts/pg-test-cluster.sh)';

/** A fresh, empty database on the test cluster (or another server's root URL); dropped by the returned function. */
export async function freshPgDatabase(root: string | null = PG_URL): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!root) throw new Error('no PostgreSQL');
  const name = `rc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: root });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(root);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: root });
      await c.connect();
      // A pool's end() resolves once it has let go of its clients, not once their sockets are closed: a
      // drop with force under a client still closing sends it a termination it reports as an error (an
      // uncaught one in the test that closed it). Wait for them to be gone (briefly), then drop.
      for (let i = 0; i < 100; i++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
