import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Store } from '../../src/store/index.js';
import { freshPgDatabase, makePki, PG_SKIP, type ServerProcess, sleep, spawnServe, waitFor } from '../helpers/index.js';
import { FakeTrustpilot } from './fakes.js';
import { addSource, reviewsOf, revisionCount } from './setup.js';

const INTERVAL_S = 2;

/** Worker replicas on one PostgreSQL database: one sync of a source at a time, and a killed one's sync is taken over. */
describe('scheduled sync with two worker replicas on PostgreSQL', { skip: PG_SKIP }, () => {
  const pki = makePki();
  const tp = new FakeTrustpilot(pki);
  const procs: ServerProcess[] = [];
  let store: Store;
  let drop: () => Promise<void>;
  let dbUrl: string;

  const worker = async () => {
    const p = await spawnServe(['--port', '0', '--role', 'worker'], {
      DATABASE_URL: dbUrl,
      REVIEWCAST_DEMO_IF_EMPTY: '0',
      REVIEWCAST_SYNC_INTERVAL: String(INTERVAL_S),
      REVIEWCAST_SYNC_CLAIM_LEASE_MS: '2000',
      REVIEWCAST_SYNC_ALLOW_PRIVATE: '1',
      REVIEWCAST_SYNC_CA_FILE: pki.caFile,
      TRUSTPILOT_API_KEY: tp.apiKey,
    });
    procs.push(p);
    return p;
  };
  const runsDone = (p: ServerProcess) =>
    p
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"sync: done"'));
  const pageSequence = () => tp.requests.filter((r) => r.path.endsWith('/reviews')).map((r) => Number(r.query.get('page')));

  after(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    await store?.close();
    await drop?.();
    await tp.stop();
  });

  test('two replicas: one sync per interval, never two at once', async () => {
    await tp.start();
    const db = await freshPgDatabase();
    dbUrl = db.url;
    drop = db.drop;
    store = await Store.open(dbUrl);
    await addSource(store, {
      kind: 'trustpilot',
      businessUnit: tp.businessUnit,
      apiBase: tp.apiBase,
      credentials: { from: 'env', names: {} },
    });
    tp.seed(250);
    tp.delayMs = 100;
    const [a, b] = await Promise.all([worker(), worker()]);
    await waitFor(() => runsDone(a).length + runsDone(b).length >= 1, 'the first sync', 30_000);
    const start = Date.now();
    const runsBefore = runsDone(a).length + runsDone(b).length;
    await sleep(INTERVAL_S * 1000 * 4);
    const elapsed = Date.now() - start;
    const runs = runsDone(a).length + runsDone(b).length - runsBefore;
    assert.ok(runs >= 2, `syncs kept coming (${runs})`);
    assert.ok(runs <= Math.floor(elapsed / (INTERVAL_S * 1000)) + 1, `at most one sync per interval (${runs} in ${elapsed} ms)`);
    // Each run reads pages 1, 2, 3 in turn: two replicas syncing at once would interleave them.
    const seq = pageSequence().join(',');
    assert.ok(`${'1,2,3,'.repeat(50)}`.startsWith(`${seq},`), `page requests: ${seq}`);
    assert.equal((await reviewsOf(store, 'trustpilot')).length, 250);
    assert.equal(await revisionCount(store), 1, 'syncs with nothing new made no revision');
    await Promise.all([a.stop(), b.stop()]);
  });
});
