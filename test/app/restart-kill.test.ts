// A server stopped at the worst moment after building a revision (SIGKILL once the revision is served,
// before or after its snapshot is stored; SIGTERM while the snapshot write is pending) restarts on that
// revision without a full build, serving the same bytes a full build makes. The moments are found from
// the server's own log lines, never from a time.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { AUTO_IDLE, corpusIdleWait } from '../../src/app/index.js';
import { analyseReviews, snapshotFormat } from '../../src/catalog/index.js';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { importFile, importRows } from '../../src/ingest/index.js';
import { engine } from '../../src/insights/index.js';
import { Store } from '../../src/store/index.js';
import {
  headerOf,
  joinedSnapshot,
  raw,
  rawDb,
  type ServerProcess,
  spawnServe,
  startTestServer,
  tempDir,
  tookOver,
} from '../helpers/index.js';

const dir = tempDir();
const seedDb = join(dir, 'seed.db');
const BASE = 'https://reviews.restart-kill.example';
const PATHS = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'];
/** The revision the seeded database is at, with its snapshot stored. */
let seeded: number;

interface LogLine {
  msg: string;
  revision?: number;
  from?: string;
  snapshot?: number;
  /** On a take-over: whether its thread stood by (started while idle) or was started for it. */
  standing_by?: boolean;
  /** On a take-over: where the insight builders' state came from ('image' or 'pass'). */
  state?: string;
  /** On a take-over: how long it took; on a release: the idle wait it followed. */
  ms?: number;
  idle_ms?: number;
  /** On a quiet collection: what it followed. */
  reason?: string;
}

const logLines = (out: string): LogLine[] =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

const serve = (db: string, env: NodeJS.ProcessEnv = {}) =>
  spawnServe(['--port', '0', '--public-base-url', BASE, '--database-url', db], {
    REVIEWCAST_POLL_MS: '50',
    REVIEWCAST_DEMO_IF_EMPTY: '0',
    ...env,
  });

/** How long a log line is waited for: a test's own time-out would leave its server running (its `finally` never runs). */
const LOGGED_WITHIN_MS = 60_000;

/** Resolves with the first log line `match` accepts (rejects if the process exits first, or after LOGGED_WITHIN_MS). */
function logged(server: ServerProcess, match: (l: LogLine) => boolean): Promise<LogLine> {
  return new Promise((resolve, reject) => {
    let from = 0;
    const done = () => {
      server.child.stdout!.off('data', check);
      server.child.off('exit', exited);
      clearTimeout(timer);
    };
    const check = () => {
      const out = server.output();
      const end = out.lastIndexOf('\n') + 1;
      const found = logLines(out.slice(from, end)).find(match);
      from = end;
      if (!found) return;
      done();
      resolve(found);
    };
    const exited = () => {
      done();
      reject(new Error(`the server exited first:\n${server.output().slice(-3000)}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`not logged within ${LOGGED_WITHIN_MS / 1000} s:\n${server.output().slice(-3000)}`));
    }, LOGGED_WITHIN_MS);
    server.child.stdout!.on('data', check);
    server.child.once('exit', exited);
    check();
  });
}

/** Sends `signal` in the same turn as the log line `match` accepts appears, and resolves once the process has exited. */
async function signalAt(server: ServerProcess, match: (l: LogLine) => boolean, signal: NodeJS.Signals) {
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    server.child.once('exit', (code, sig) => resolve({ code, signal: sig })),
  );
  await logged(server, match);
  server.child.kill(signal);
  return exited;
}

const loadedLine = (server: ServerProcess) => logLines(server.output()).find((l) => l.msg === 'catalog revision loaded')!;
const snapshotStored = (revision: number) => (l: LogLine) => l.msg === 'catalog snapshot stored' && l.revision === revision;

async function storedSnapshots(db: string): Promise<number[]> {
  const raw = rawDb(db);
  try {
    return (await raw.selectFrom('catalog_snapshots').select('revision').orderBy('revision').execute()).map((r) => Number(r.revision));
  } finally {
    await raw.destroy();
  }
}

async function bodies(url: string): Promise<{ etag: string | null; body: string }[]> {
  return Promise.all(
    PATHS.map(async (p) => {
      // Identity: the ETag of the bytes (a large body's coding may or may not be made yet).
      const res = await fetch(url + p, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(res.status, 200, p);
      return { etag: res.headers.get('etag'), body: await res.text() };
    }),
  );
}

/** A copy of a stopped server's SQLite database (its WAL too, if one is left). */
function copyDb(from: string, to: string): string {
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(to + suffix, { force: true });
    if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
  }
  return to;
}

/** A copy of the seeded database (with the snapshot of its revision), for one test. */
const copySeed = (name: string) => copyDb(seedDb, join(dir, `${name}.db`));

/** One new revision written from this process: new reviews and an edit of a stored one. Returns its id. */
async function importRevision(db: string, tag: string): Promise<number> {
  const raw = rawDb(db);
  const edited = await raw
    .selectFrom('reviews')
    .select(['source', 'source_review_id', 'author', 'date'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  await raw.destroy();
  const store = await Store.open(db);
  try {
    const fresh = generateDemoReviews({ reviews: 40, seed: 77 }).map((r, i) => ({
      ...r,
      source: 'direct',
      source_review_id: `${tag}-${i}`,
    }));
    const edit = { ...edited, rating: 1, text: `Changed my mind (${tag}).` };
    const report = await importRows(
      store,
      [...fresh, edit].map((value, index) => ({ index, value })),
      [],
    );
    assert.equal(report.added, 40);
    assert.equal(report.updated, 1);
    return (await store.latestRevision())!.id;
  } finally {
    await store.close();
  }
}

/** Announces a write to the servers of `db`, as an import does before it analyses. */
async function announce(db: string) {
  const store = await Store.open(db);
  try {
    await store.announceWrite();
  } finally {
    await store.close();
  }
}

/** Deletes the corpus images stored beside `db`'s snapshots (as after a kill between a snapshot and its image, or snapshots of an older version). */
async function dropImages(db: string) {
  const raw = rawDb(db);
  assert.ok(Number((await raw.deleteFrom('catalog_snapshot_parts').where('name', '=', 'corpus').executeTakeFirst()).numDeletedRows) > 0);
  await raw.destroy();
}

/** Deletes every stored snapshot of `db` and its parts: its next start builds in full. */
async function dropSnapshots(db: string) {
  const raw = rawDb(db);
  await raw.deleteFrom('catalog_snapshot_parts').execute();
  await raw.deleteFrom('catalog_snapshots').execute();
  await raw.destroy();
}

/** What a full build of `db`'s newest revision serves: a copy of it with no stored snapshot, in a server of this process. */
async function fullBuildBodies(db: string, name: string) {
  const copy = copyDb(db, join(dir, `${name}-scratch.db`));
  await dropSnapshots(copy);
  const scratch = await startTestServer({ DATABASE_URL: copy, PUBLIC_BASE_URL: BASE, REVIEWCAST_DEMO_IF_EMPTY: false });
  try {
    return { revision: scratch.catalog.get().revision, served: await bodies(scratch.url) };
  } finally {
    await scratch.close();
  }
}

before(async () => {
  const store = await Store.open(seedDb);
  await store.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
  const file = join(dir, 'seed.ndjson');
  writeFileSync(
    file,
    generateDemoReviews({ reviews: 300, seed: 21 })
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  assert.equal((await importFile(store, file, { analyze: analyseReviews(engine) })).added, 300);
  seeded = (await store.latestRevision())!.id;
  await store.close();
  // The first start builds the revision and stores its snapshot; every test starts from that.
  const first = await serve(seedDb);
  await logged(first, snapshotStored(seeded));
  await logged(first, (l) => l.msg === 'corpus image stored' && l.revision === seeded);
  await first.stop();
  assert.deepEqual(await storedSnapshots(seedDb), [seeded]);
});

test('SIGKILL once the new revision is served and its snapshot stored: the restart loads that snapshot', async () => {
  const db = copySeed('stored');
  const server = await serve(db);
  assert.deepEqual(loadedLine(server), { ...loadedLine(server), revision: seeded, from: 'snapshot' });
  const revision = await importRevision(db, 'stored');
  await logged(server, snapshotStored(revision));
  const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { revision: number };
  assert.equal(ready.revision, revision);
  const served = await bodies(server.url);
  server.child.kill('SIGKILL');
  await server.stop();
  assert.deepEqual(await storedSnapshots(db), [seeded, revision], 'the new snapshot and the one before it are kept');

  const restarted = await serve(db);
  try {
    const loaded = loadedLine(restarted);
    assert.equal(loaded.revision, revision);
    assert.equal(loaded.from, 'snapshot', 'restarted from the stored revision, not a full build');
    assert.deepEqual(await bodies(restarted.url), served, 'the same bytes and ETags as before the kill');
    assert.match(served[0].body, /Changed my mind \(stored\)/);
  } finally {
    await restarted.stop();
  }
});

test('SIGKILL as soon as the new revision is built, before its snapshot is stored: the restart builds on the previous snapshot, not from scratch', async (t) => {
  const db = copySeed('pending');
  const server = await serve(db);
  const revision = await importRevision(db, 'pending');
  const ended = await signalAt(server, (l) => l.msg === 'catalog revision loaded' && l.revision === revision, 'SIGKILL');
  assert.equal(ended.signal, 'SIGKILL');
  // A kill a moment later can find the write done (SQLite commits it whole or not at all); this test is
  // about the state before it, so a snapshot that made it is removed: what a kill in the window leaves.
  const stored = await storedSnapshots(db);
  t.diagnostic(`snapshots stored when killed: ${stored.join(', ')}`);
  if (stored.includes(revision)) {
    const raw = rawDb(db);
    await raw.deleteFrom('catalog_snapshots').where('revision', '=', revision).execute();
    await raw.destroy();
  }
  assert.deepEqual(await storedSnapshots(db), [seeded]);

  const restarted = await serve(db);
  let served: Awaited<ReturnType<typeof bodies>>;
  try {
    const loaded = loadedLine(restarted);
    assert.equal(loaded.revision, revision, 'ready on the newest revision, not the older snapshot');
    assert.equal(loaded.from, 'update', 'built on the previous snapshot, not a full read');
    assert.equal(loaded.snapshot, seeded);
    assert.equal(logLines(restarted.output()).find(tookOver(seeded))?.from, 'image', 'the older revision taken over from its corpus image');
    assert.ok(!logLines(restarted.output()).some((l) => l.from === 'full read'));
    served = await bodies(restarted.url);
    // Its own snapshot is stored now, so the next restart loads it directly.
    await logged(restarted, snapshotStored(revision));
  } finally {
    await restarted.stop();
  }
  const reference = await fullBuildBodies(db, 'pending');
  assert.equal(reference.revision, revision);
  assert.deepEqual(served, reference.served, 'the same bytes and ETags as a full build of that revision');
  assert.match(served[0].body, /Changed my mind \(pending\)/);
});

test('SIGTERM while the new snapshot is being stored waits for the write: the restart loads that revision', async (t) => {
  const db = copySeed('sigterm');
  const server = await serve(db);
  const revision = await importRevision(db, 'sigterm');
  const ended = await signalAt(server, (l) => l.msg === 'catalog revision loaded' && l.revision === revision, 'SIGTERM');
  assert.equal(ended.code, 0, server.output().slice(-3000));
  const lines = logLines(server.output());
  const signalled = lines.findIndex((l) => l.msg === 'shutting down: finishing in-flight requests');
  const stored = lines.findIndex(snapshotStored(revision));
  t.diagnostic(`the snapshot write was ${signalled < stored ? 'still pending' : 'already done'} when SIGTERM arrived`);
  assert.ok(stored >= 0, 'the pending write completed before the process exited');
  assert.deepEqual(await storedSnapshots(db), [seeded, revision]);
  assert.ok(
    lines.some((l) => l.msg === 'corpus image stored' && l.revision === revision),
    'the corpus thread held the revision: its image was stored before the exit too',
  );

  const restarted = await serve(db);
  let served: Awaited<ReturnType<typeof bodies>>;
  try {
    const loaded = loadedLine(restarted);
    assert.equal(loaded.revision, revision);
    assert.equal(loaded.from, 'snapshot');
    served = await bodies(restarted.url);
    // The next write's take-over reads that image.
    await announce(db);
    assert.equal((await logged(restarted, tookOver(revision))).from, 'image');
  } finally {
    await restarted.stop();
  }
  const reference = await fullBuildBodies(db, 'sigterm');
  assert.deepEqual(served, reference.served, 'the stored snapshot serves what a full build serves');
});

test('a snapshot stored in many small parts: the restart loads it, serving the bytes and ETags a full build serves and the stored gzip codings', async () => {
  const db = copySeed('parts');
  // The seeded snapshot stored again in parts of 4 KiB (a server stores parts of megabytes).
  const store = await Store.open(db, { snapshotPartBytes: 4096 });
  let stored: { reviews: Buffer; insights: Buffer };
  try {
    const read = await store.newestSnapshot(seeded, BASE, snapshotFormat(engine.version));
    assert.ok(read);
    const found = { snapshot: joinedSnapshot(read.snapshot) };
    stored = found.snapshot;
    const raw = rawDb(db);
    await raw.deleteFrom('catalog_snapshot_parts').execute();
    await raw.deleteFrom('catalog_snapshots').execute();
    await store.saveSnapshot(found.snapshot);
    const parts = await raw.selectFrom('catalog_snapshot_parts').select(['name', 'bytes']).execute();
    await raw.destroy();
    const layoutParts = parts.filter((p) => p.name === 'layout');
    assert.equal(layoutParts.length, Math.ceil(found.snapshot.layout.length / 4096));
    assert.ok(layoutParts.length >= 20, `the layout is in ${layoutParts.length} parts`);
    assert.ok(parts.every((p) => p.bytes.length <= 4096));
  } finally {
    await store.close();
  }
  const restarted = await serve(db);
  let served: Awaited<ReturnType<typeof bodies>>;
  try {
    const loaded = loadedLine(restarted);
    assert.equal(loaded.revision, seeded);
    assert.equal(loaded.from, 'snapshot', 'loaded from the parts, not built');
    served = await bodies(restarted.url);
    // Each body's gzip coding is the stored one (read in 4 KiB parts here), with its whole length.
    for (const name of ['reviews', 'insights'] as const) {
      const gz = await raw(`${restarted.url}/${name}.json`, 'GET', { 'accept-encoding': 'gzip, identity;q=0' });
      assert.equal(headerOf(gz, 'content-encoding'), 'gzip', name);
      assert.equal(headerOf(gz, 'content-length'), String(stored[name].length), name);
      assert.ok(gz.body.equals(stored[name]), `${name}: the stored coding's bytes`);
    }
  } finally {
    await restarted.stop();
  }
  const reference = await fullBuildBodies(db, 'parts');
  assert.deepEqual(served, reference.served, 'the parts serve what a full build serves');
});

test('a server started from its stored revision starts its corpus thread with the next revision, released when idle and started again: each revision an update equal to a full build, taken over from the stored corpus image when there is one', async () => {
  const db = copySeed('idle');
  // This restart finds no corpus image beside the snapshot (as after one stored by an older version).
  await dropImages(db);
  const server = await serve(db, { REVIEWCAST_CORPUS_IDLE: '1' });
  let served: Awaited<ReturnType<typeof bodies>>;
  let revision: number;
  try {
    assert.equal(loadedLine(server).from, 'snapshot');
    // The first revision: a corpus thread takes the served revision over from its bodies, then builds on it.
    // Idle since the start: a thread holding nothing stands by, and the first revision's take-over runs on it.
    assert.equal((await logged(server, (l) => l.msg === 'a corpus thread stands by')).revision, seeded);
    const first = await importRevision(db, 'idle-1');
    const firstTakeOver = await logged(server, tookOver(seeded));
    assert.equal(firstTakeOver.from, 'bodies', 'no image stored: the bodies parsed');
    assert.equal(firstTakeOver.standing_by, true, 'on the thread that stood by');
    const loadedFirst = await logged(server, (l) => l.msg === 'catalog revision loaded' && l.revision === first);
    assert.equal(loadedFirst.from, 'update', 'built on the held revision by a new corpus thread, not read in full');
    await logged(server, (l) => l.msg === 'corpus image stored' && l.revision === first);
    const released = await logged(server, (l) => l.msg === 'corpus thread released (idle)');
    assert.equal(released.revision, first, 'released once idle after that revision (its snapshot and image stored)');
    // What the server held for the thread is garbage once it has exited: the next quiet look collects it.
    await logged(server, (l) => l.msg === 'heap collected after a busy spell' && l.reason === 'the idle corpus thread exited');
    await logged(server, (l) => l.msg === 'a corpus thread stands by' && l.revision === first);
    const standsBy = logLines(server.output()).filter((l) => l.msg === 'a corpus thread stands by');
    assert.deepEqual(
      standsBy.map((l) => l.revision),
      [seeded, first],
      'another stands by once it is released, and only then',
    );
    // After the idle exit, the next revision has the thread standing by take it over, reading the rows from the image, and is still an update.
    revision = await importRevision(db, 'idle-2');
    const secondTakeOver = await logged(server, tookOver(first));
    assert.equal(secondTakeOver.from, 'image', 'taken over from the stored corpus image');
    assert.equal(secondTakeOver.standing_by, true);
    const loaded = await logged(server, (l) => l.msg === 'catalog revision loaded' && l.revision === revision);
    assert.equal(loaded.from, 'update');
    served = await bodies(server.url);
    await logged(server, (l) => l.msg === 'corpus thread released (idle)' && l.revision === revision);
  } finally {
    await server.stop();
  }
  const scratch = await fullBuildBodies(db, 'idle');
  assert.equal(scratch.revision, revision);
  assert.deepEqual(served, scratch.served, 'the same bytes and ETags as a full build');
});

test('with the default idle wait (auto) a corpus thread is released after ten times its last take-over, at least 5 s', async () => {
  const db = copySeed('auto-idle');
  const server = await serve(db);
  try {
    await logged(server, (l) => l.msg === 'a corpus thread stands by');
    const revision = await importRevision(db, 'auto-idle');
    const takeOver = await logged(server, tookOver(seeded));
    const released = await logged(server, (l) => l.msg === 'corpus thread released (idle)');
    assert.equal(released.revision, revision, 'released once idle after the revision it built');
    assert.equal(released.idle_ms, corpusIdleWait('auto', takeOver.ms!), `after a take-over of ${takeOver.ms} ms`);
    assert.ok(released.idle_ms! < AUTO_IDLE.untimedMs, 'a small corpus is not kept the minute a fixed wait kept it');
  } finally {
    await server.stop();
  }
});

test('a write announced to a server started from its stored revision has a corpus thread take that revision over at once (the one that stands by shortly after the start, long before the idle wait ends); the revision the write then makes is an update on it', {
  timeout: 120_000,
}, async () => {
  const db = copySeed('announced');
  const server = await serve(db, { REVIEWCAST_CORPUS_IDLE: '1h' });
  try {
    assert.equal(loadedLine(server).from, 'snapshot');
    // The seed's import announced its write before this server started: a count seen at start is no announcement.
    // Nothing holds the corpus: a thread stands by after a short wait, not the idle wait (an hour here).
    const standsBy = await logged(server, (l) => l.msg === 'a corpus thread stands by');
    assert.equal(standsBy.revision, seeded);
    assert.equal(
      logLines(server.output()).some((l) => l.msg === 'a write was announced: the corpus thread takes the revision over'),
      false,
    );
    await announce(db);
    const announced = await logged(server, (l) => l.msg === 'a write was announced: the corpus thread takes the revision over');
    assert.equal(announced.revision, seeded);
    const takenOver = await logged(server, tookOver(seeded));
    assert.equal(takenOver.from, 'image', 'taken over from the stored corpus image, with no revision yet');
    assert.equal(takenOver.state, 'image', 'the insight builders’ state taken back with the rows, not made by a pass');
    assert.equal(takenOver.standing_by, true, 'on the thread that stood by');
    const revision = await importRevision(db, 'announced-1');
    const loaded = await logged(server, (l) => l.msg === 'catalog revision loaded' && l.revision === revision);
    assert.equal(loaded.from, 'update', 'built on the revision the thread took over');
    const takeOvers = logLines(server.output()).filter((l) => l.msg === 'corpus thread took the revision over');
    assert.equal(takeOvers.length, 1, 'the write found the thread ready: no second take-over');
  } finally {
    await server.stop();
  }
});

test('SIGTERM as soon as a first start has built its revision (the fresh corpus thread still taking it over, from the build thread’s image): the exit waits for the snapshot and then its corpus image, so the restart takes over from the image', async (t) => {
  const db = copySeed('first-sigterm');
  await dropSnapshots(db);
  const server = await serve(db);
  // Logged as the fresh thread starts, before the build's thread has given it the rows and before the snapshot is stored.
  const ended = await signalAt(server, (l) => l.msg === 'catalog revision loaded' && l.from === 'full read', 'SIGTERM');
  assert.equal(ended.code, 0, server.output().slice(-3000));
  const lines = logLines(server.output());
  const signalled = lines.findIndex((l) => l.msg === 'shutting down: finishing in-flight requests');
  const tookOverAt = lines.findIndex(tookOver(seeded));
  // The defect this is for needs the take-over still under way at the signal (the thread's start alone takes longer than the signal's way).
  t.diagnostic(`the fresh thread's take-over was ${signalled < tookOverAt ? 'still under way' : 'already done'} when SIGTERM arrived`);
  assert.equal(lines[tookOverAt]?.from, 'image', 'the fresh thread took the rows from the build thread’s image, not by parsing the bodies');
  assert.ok(lines.some(snapshotStored(seeded)), 'the snapshot was stored before the exit');
  assert.ok(
    lines.some((l) => l.msg === 'corpus image stored' && l.revision === seeded),
    'its corpus image too, once the fresh thread had taken the revision over',
  );
  const restarted = await serve(db);
  try {
    assert.equal(loadedLine(restarted).from, 'snapshot');
    await announce(db);
    assert.equal((await logged(restarted, tookOver(seeded))).from, 'image');
  } finally {
    await restarted.stop();
  }
});

test('a stored revision whose corpus image was lost is taken over from its bodies once, and the image it then stores serves the next take-over', async () => {
  const db = copySeed('image-lost');
  await dropImages(db);
  const server = await serve(db, { REVIEWCAST_CORPUS_IDLE: '1h' });
  try {
    await announce(db);
    assert.equal((await logged(server, tookOver(seeded))).from, 'bodies', 'no image stored: the bodies parsed');
    await logged(server, (l) => l.msg === 'corpus image stored' && l.revision === seeded);
  } finally {
    await server.stop();
  }
  const restarted = await serve(db);
  try {
    assert.equal(loadedLine(restarted).from, 'snapshot');
    await announce(db);
    assert.equal((await logged(restarted, tookOver(seeded))).from, 'image', 'the image stored after the first take-over');
  } finally {
    await restarted.stop();
  }
});

test('a stored snapshot with a part lost: the start builds the revision in full, serving what a full build serves, and stores it whole; the next start loads it', async () => {
  const db = copySeed('damaged');
  const raw = rawDb(db);
  const last = await raw
    .selectFrom('catalog_snapshot_parts')
    .select('seq')
    .where('revision', '=', seeded)
    .where('name', '=', 'layout')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  await raw
    .deleteFrom('catalog_snapshot_parts')
    .where('revision', '=', seeded)
    .where('name', '=', 'layout')
    .where('seq', '=', last.seq)
    .execute();
  await raw.destroy();
  const server = await serve(db);
  let served: Awaited<ReturnType<typeof bodies>>;
  try {
    const damaged = logLines(server.output()).find((l) => l.msg === 'stored snapshot is damaged; building the revision');
    assert.equal(damaged?.revision, seeded, 'the damage is logged');
    assert.deepEqual(loadedLine(server), { ...loadedLine(server), revision: seeded, from: 'full read' });
    served = await bodies(server.url);
    await logged(server, snapshotStored(seeded));
  } finally {
    await server.stop();
  }
  assert.deepEqual(served, (await fullBuildBodies(db, 'damaged')).served, 'the full build serves what a full build serves');
  const restarted = await serve(db);
  try {
    assert.deepEqual(
      loadedLine(restarted),
      { ...loadedLine(restarted), revision: seeded, from: 'snapshot' },
      'the stored snapshot is whole again',
    );
    assert.deepEqual(await bodies(restarted.url), served);
  } finally {
    await restarted.stop();
  }
});

test('a review unpublished without being marked as changed (a write by hand): the next revision, built on the loaded one, counts one review too many and is read in full instead', async () => {
  const db = copySeed('drift');
  const raw = rawDb(db);
  const hidden = await raw.selectFrom('reviews').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  await raw.updateTable('reviews').set({ published: 0 }).where('id', '=', hidden.id).execute();
  await raw.destroy();
  const server = await serve(db);
  let served: Awaited<ReturnType<typeof bodies>>;
  try {
    assert.deepEqual(loadedLine(server), { ...loadedLine(server), revision: seeded, from: 'snapshot' });
    const revision = await importRevision(db, 'drift');
    const loaded = await logged(server, (l) => l.msg === 'catalog revision loaded' && l.revision === revision);
    assert.equal(loaded.from, 'full read', 'read in full, not an update of the loaded revision');
    assert.ok(logLines(server.output()).some((l) => l.msg === 'catalog drifted from the store; reading everything'));
    served = await bodies(server.url);
    assert.ok(!served[0].body.includes(hidden.id), 'the review unpublished by hand is gone');
  } finally {
    await server.stop();
  }
  assert.deepEqual(served, (await fullBuildBodies(db, 'drift')).served, 'what a full build serves');
});
