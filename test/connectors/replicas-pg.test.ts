import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Store } from '../../src/store/index.js';
import { freshPgDatabase, makePki, PG_SKIP, type ServerProcess, sleep, spawnServe, waitFor } from '../helpers/index.js';
import { FakeTrustpilot } from './fakes.js';
import { addSource, reviewsOf, revisionCount, sourceRows, syncOnce, testDeps } from './setup.js';

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
    await addSource(store, tp.settings());
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

/** SIGKILL mid-sync: the claim's lease runs out and the other replica syncs from the stored checkpoint. */
describe('a worker replica killed mid-sync on PostgreSQL', { skip: PG_SKIP }, () => {
  const pki = makePki();
  const tp = new FakeTrustpilot(pki);
  const procs: ServerProcess[] = [];
  let store: Store;
  let drop: () => Promise<void>;

  after(async () => {
    tp.release();
    for (const p of procs) p.child.kill('SIGKILL');
    await store?.close();
    await drop?.();
    await tp.stop();
  });

  const lines = (p: ServerProcess, msg: string) =>
    p
      .output()
      .split('\n')
      .filter((l) => l.includes(`"msg":"${msg}"`))
      .map((l) => JSON.parse(l));

  test('the claim expires and the survivor completes from the checkpoint, writing once', async () => {
    await tp.start();
    const db = await freshPgDatabase();
    drop = db.drop;
    store = await Store.open(db.url);
    await addSource(store, tp.settings());
    // A first sync in this process leaves a checkpoint and one revision, and the source due again at once.
    tp.seed(250);
    const { deps } = testDeps(store, pki, { TRUSTPILOT_API_KEY: tp.apiKey });
    assert.equal((await syncOnce({ ...deps, intervalMs: 0 }, 'trustpilot')).ok, true);
    const [before] = await sourceRows(store);
    assert.ok(before?.checkpoint, 'the first sync stored a checkpoint');
    assert.equal(await revisionCount(store), 1);

    tp.seed(250, 251);
    tp.hold = (r) => r.path.endsWith('/reviews') && r.query.get('page') === '3';
    const firstRequest = tp.requests.length;
    const env = {
      DATABASE_URL: db.url,
      REVIEWCAST_DEMO_IF_EMPTY: '0',
      REVIEWCAST_SYNC_INTERVAL: '60',
      // Long enough that a busy machine's page (the lease is renewed per page) never lets it lapse before the kill.
      REVIEWCAST_SYNC_CLAIM_LEASE_MS: '5000',
      REVIEWCAST_SYNC_ALLOW_PRIVATE: '1',
      REVIEWCAST_SYNC_CA_FILE: pki.caFile,
      TRUSTPILOT_API_KEY: tp.apiKey,
    };
    const workers = await Promise.all([0, 1].map(() => spawnServe(['--port', '0', '--role', 'worker'], env)));
    procs.push(...workers);

    // Page 3 waits: whoever asked for it holds the claim, has read pages 1 and 2, and has written nothing.
    await waitFor(() => tp.held.length === 1, 'a sync to reach page 3', 30_000);
    const syncing = workers.filter((w) => lines(w, 'sync: started').length === 1);
    assert.equal(syncing.length, 1, 'exactly one replica is syncing');
    const [killed] = syncing as [ServerProcess];
    const survivor = workers.find((w) => w !== killed)!;
    killed.child.kill('SIGKILL');
    await new Promise((r) => (killed.child.exitCode === null && killed.child.signalCode === null ? killed.child.once('exit', r) : r(null)));
    const killedAt = tp.requests.length;
    tp.release();

    assert.equal((await reviewsOf(store, 'trustpilot')).length, 250, 'the killed run wrote no review');
    assert.equal(await revisionCount(store), 1, 'the killed run made no revision');

    await waitFor(() => lines(survivor, 'sync: done').length === 1, "the survivor's sync", 60_000);
    const [started] = lines(survivor, 'sync: started');
    assert.equal(started.full, false, 'the survivor ran an incremental sync');
    assert.equal(started.checkpoint, before.checkpoint, 'from the stored checkpoint');
    assert.deepEqual(
      tp.requests.slice(killedAt).map((r) => Number(r.query.get('page'))),
      [1, 2, 3, 4, 5],
      'the survivor read every page once',
    );
    assert.deepEqual(
      tp.requests.slice(firstRequest, killedAt).map((r) => Number(r.query.get('page'))),
      [1, 2, 3],
      'the killed replica had read pages 1 and 2 and asked for 3',
    );
    assert.equal(lines(killed, 'sync: done').length, 0);

    const stored = (await reviewsOf(store, 'trustpilot')).map((r) => r.source_review_id).sort();
    assert.deepEqual(stored, [...tp.reviews.keys()].sort(), "the stored reviews are the platform's");
    assert.equal(await revisionCount(store), 2, 'the completed sync made exactly one revision');
    const [after_] = await sourceRows(store);
    assert.equal(after_?.claim_token, null, 'the claim was released');
    assert.ok(after_?.checkpoint && after_.checkpoint > before.checkpoint, 'the checkpoint moved on');
    assert.equal(lines(survivor, 'sync: done').length, 1, 'one sync in the interval');
    await survivor.stop();
  });
});
