// A stored snapshot is a row and its bytes in parts of bounded size (at a million reviews one field
// passes what one database value may hold): the parts join back to the same bytes, old revisions' parts
// go with their row, and a process killed between two parts leaves the snapshots as they were.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { demoBusiness } from '../../src/demo/index.js';
import { DamagedSnapshotError, SNAPSHOT_BYTES_FIELDS, type StoredSnapshot } from '../../src/domain/index.js';
import { Store } from '../../src/store/index.js';
import { freshPgDatabase, joinedSnapshot, PG_SKIP, rawDb, tempDir } from '../helpers/index.js';

const BASE = 'https://reviews.parts.example';
const FORMAT = 'engine/1 catalog/1';

const joinedOf = (found: Awaited<ReturnType<Store['newestSnapshot']>>) => (found ? joinedSnapshot(found.snapshot) : found);
const PART = 1_000;
/** The compiled store (`npm test` builds dist/ first), for a writer in another process. */
const DIST_STORE = fileURLToPath(new URL('../../dist/store/index.js', import.meta.url));

/** A new data revision (a changed profile), returning its id. */
async function newRevision(store: Store, n: number): Promise<number> {
  const revision = await store.setBusiness({ ...demoBusiness(), name: `Parts test ${n}` }, `2026-11-0${n}T10:00:00.000Z`);
  assert.ok(revision);
  return revision.id;
}

const snapshot = (revision: number, sizes: { reviews: number; insights: number; layout: number }): StoredSnapshot => ({
  revision,
  base_url: BASE,
  engine: FORMAT,
  reviews: randomBytes(sizes.reviews),
  insights: randomBytes(sizes.insights),
  insights_core: JSON.stringify({ revision }),
  layout: randomBytes(sizes.layout),
  created_at: '2026-11-10T10:00:00.000Z',
});

/** The stored parts of a revision's snapshot: per field, each part's length in order. */
async function partLengths(raw: Kysely<any>, revision: number): Promise<Record<string, number[]>> {
  const rows = await raw
    .selectFrom('catalog_snapshot_parts')
    .select(['name', 'seq', 'bytes'])
    .where('revision', '=', revision)
    .orderBy('name')
    .orderBy('seq')
    .execute();
  const out: Record<string, number[]> = {};
  for (const r of rows) {
    out[r.name] ??= [];
    assert.equal(Number(r.seq), out[r.name].length, 'parts are numbered from 0 without gaps');
    out[r.name].push(r.bytes.length);
  }
  return out;
}

/** Saves a snapshot of `revision` from another process (the compiled store): its reviews field `size` bytes, in parts of `part`. */
function writerProcess(url: string, revision: number, size: number, part: number) {
  const script = `
    import { Store } from ${JSON.stringify(DIST_STORE)};
    const store = await Store.open(${JSON.stringify(url)}, { snapshotPartBytes: ${part} });
    process.stdout.write('opened\\n');
    // Writes only when told, so the test can set its trap first (e.g. a lock on one part).
    await new Promise((resolve) => process.stdin.once('data', resolve));
    await store.saveSnapshot({
      revision: ${revision}, base_url: ${JSON.stringify(BASE)}, engine: ${JSON.stringify(FORMAT)},
      reviews: Buffer.alloc(${size}, 7), insights: Buffer.alloc(10, 8), layout: Buffer.alloc(10, 9),
      insights_core: '{}', created_at: '2026-11-10T10:00:00.000Z',
    });
    process.stdout.write('saved\\n');
    await store.close();
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const opened = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('opened')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before opening the store: ${out}`)));
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, opened, exited, output: () => out, go: () => child.stdin.write('go\n') };
}

function partsSuite(
  engine: 'sqlite' | 'postgres',
  open: () => Promise<{ url: string; cleanup: () => Promise<void> }>,
  /** Tells the writer to go (`writer.go()`) and resolves once it is inside its transaction, between two parts; the writer is then killed. */
  holdBetweenParts: (url: string, revision: number, writer: ReturnType<typeof writerProcess>) => Promise<() => Promise<void>>,
  writerSize: number,
  skip: string | false = false,
) {
  describe(`snapshot parts on ${engine}`, { skip }, () => {
    let url: string;
    let cleanup: () => Promise<void>;
    let store: Store;
    let raw: Kysely<any>;
    beforeEach(async () => {
      ({ url, cleanup } = await open());
      store = await Store.open(url, { snapshotPartBytes: PART });
      raw = rawDb(url);
    });
    afterEach(async () => {
      await raw?.destroy();
      await store?.close();
      await cleanup?.();
    });

    /** One stored part of revision `r`'s snapshot, changed as a lost write or a hand edit would leave it. */
    const at = (r: number, name: string, seq: number) => ({ revision: r, base_url: BASE, engine: FORMAT, name, seq });
    const parts = {
      get: (r: number, name: string, seq: number) =>
        raw
          .selectFrom('catalog_snapshot_parts')
          .selectAll()
          .where((eb) => eb.and(at(r, name, seq)))
          .executeTakeFirstOrThrow(),
      put: (row: object) => raw.insertInto('catalog_snapshot_parts').values(row).execute(),
      set: (r: number, name: string, seq: number, values: { seq?: number; bytes?: Buffer }) =>
        raw
          .updateTable('catalog_snapshot_parts')
          .where((eb) => eb.and(at(r, name, seq)))
          .set(values)
          .execute(),
      async drop(r: number, name: string, seq: number) {
        const { numDeletedRows } = await raw
          .deleteFrom('catalog_snapshot_parts')
          .where((eb) => eb.and(at(r, name, seq)))
          .executeTakeFirst();
        assert.equal(Number(numDeletedRows), 1, `${name} part ${seq}`);
      },
    };

    test('a snapshot in many parts reads back byte for byte; no part is larger than the part size', async () => {
      const r1 = await newRevision(store, 1);
      // Not a multiple of the part size, empty, and an exact multiple.
      const snap = snapshot(r1, { reviews: 10_500, insights: 0, layout: 3 * PART });
      await store.saveSnapshot(snap);
      assert.deepEqual(await partLengths(raw, r1), {
        insights: [0],
        layout: [PART, PART, PART],
        reviews: [...Array(10).fill(PART), 500],
      });
      let pauses = 0;
      const fields: string[] = [];
      const found = await store.newestSnapshot(r1, BASE, FORMAT, {
        pause: async () => {
          pauses++;
        },
        onField: (name, parts) => fields.push(`${name} ${parts.length} after ${pauses} pauses`),
      });
      assert.ok(found);
      assert.equal(found.revision.id, r1);
      assert.deepEqual(joinedSnapshot(found.snapshot), snap);
      assert.deepEqual(
        Object.fromEntries(SNAPSHOT_BYTES_FIELDS.map((name) => [name, found.snapshot[name].map((b) => b.length)])),
        { reviews: [...Array(10).fill(PART), 500], insights: [0], layout: [PART, PART, PART] },
        'each field in the parts it was stored in',
      );
      // SQLite reads on the calling thread: a pause after every part. PostgreSQL reads a field in one
      // query whose rows arrive while the event loop turns: no pause of its own.
      const perPart = engine === 'sqlite';
      assert.equal(pauses, perPart ? 11 + 1 + 3 : 0, 'a pause after every part read on the calling thread');
      assert.deepEqual(
        fields,
        perPart
          ? ['reviews 11 after 11 pauses', 'insights 1 after 12 pauses', 'layout 3 after 15 pauses']
          : ['reviews 11 after 0 pauses', 'insights 1 after 0 pauses', 'layout 3 after 0 pauses'],
        'each field handed over once read',
      );
      assert.equal(await store.newestSnapshot(r1, 'https://another.example', FORMAT), null, 'another base URL');
      assert.equal(await store.newestSnapshot(r1, BASE, 'engine/2 catalog/1'), null, 'another format');
    });

    test('a part missing (the first or last too), out of place, of another length or past the count is refused, naming its field', async () => {
      const r1 = await newRevision(store, 1);
      const snap = snapshot(r1, { reviews: 3 * PART, insights: 10, layout: 3 * PART });
      await store.saveSnapshot(snap);
      const refused = (name: string) =>
        assert.rejects(store.newestSnapshot(r1, BASE, FORMAT), (err: Error) => {
          assert.ok(err instanceof DamagedSnapshotError, String(err));
          assert.deepEqual([err.revision, err.field], [r1, name]);
          return true;
        });
      // The last part of reviews numbered past a gap.
      await parts.set(r1, 'reviews', 2, { seq: 5 });
      await refused('reviews');
      await parts.set(r1, 'reviews', 5, { seq: 2 });
      assert.deepEqual(joinedOf(await store.newestSnapshot(r1, BASE, FORMAT)), snap, 'whole again');
      // The last part of reviews gone: the parts left are whole among themselves, and name a count of 3.
      const last = await parts.get(r1, 'reviews', 2);
      await parts.drop(r1, 'reviews', 2);
      await refused('reviews');
      await parts.put(last);
      assert.deepEqual(joinedOf(await store.newestSnapshot(r1, BASE, FORMAT)), snap, 'whole again');
      // The first part of reviews gone, then back.
      const firstPart = await parts.get(r1, 'reviews', 0);
      await parts.drop(r1, 'reviews', 0);
      await refused('reviews');
      await parts.put(firstPart);
      // A fourth part of reviews past the three its parts record.
      await parts.put({ ...last, seq: 3 });
      await refused('reviews');
      await parts.drop(r1, 'reviews', 3);
      assert.deepEqual(joinedOf(await store.newestSnapshot(r1, BASE, FORMAT)), snap, 'whole again');
      // A part of insights one byte short.
      const short = await parts.get(r1, 'insights', 0);
      await parts.set(r1, 'insights', 0, { bytes: short.bytes.subarray(1) });
      await refused('insights');
      await parts.set(r1, 'insights', 0, { bytes: short.bytes });
      // The only part of insights gone: the field has none.
      await parts.drop(r1, 'insights', 0);
      await refused('insights');
      await parts.put(short);
      // The middle part of layout gone.
      await parts.drop(r1, 'layout', 1);
      await refused('layout');
    });

    test('a damaged snapshot, or corpus image, is replaced by the next one stored for its revision; a whole one is kept', async () => {
      const r1 = await newRevision(store, 1);
      const key = { revision: r1, base_url: BASE, engine: FORMAT };
      const first = snapshot(r1, { reviews: 3 * PART, insights: 10, layout: 2 * PART + 1 });
      await store.saveSnapshot(first);
      await store.saveCorpusImage(key, randomBytes(2 * PART));
      await store.saveSnapshot(snapshot(r1, { reviews: 10, insights: 10, layout: 10 }));
      assert.deepEqual(joinedOf(await store.newestSnapshot(r1, BASE, FORMAT)), first, 'whole: kept');
      // Each damage refused on load, then the next snapshot stored for the revision replaces it.
      const replacedAfter = async (what: string, damage: () => Promise<unknown>) => {
        await damage();
        await assert.rejects(store.newestSnapshot(r1, BASE, FORMAT), DamagedSnapshotError, what);
        const next = snapshot(r1, { reviews: 2 * PART + 7, insights: 20, layout: 3 * PART });
        await store.saveSnapshot(next);
        assert.deepEqual(joinedOf(await store.newestSnapshot(r1, BASE, FORMAT)), next, `${what}: replaced`);
      };
      await replacedAfter('the last part lost', () => parts.drop(r1, 'layout', 2));
      assert.equal(await store.corpusImage(key), null, 'the image went with the damaged snapshot');
      await replacedAfter('a part one byte short', async () => {
        const { bytes } = await parts.get(r1, 'reviews', 0);
        await parts.set(r1, 'reviews', 0, { bytes: bytes.subarray(1) });
      });
      await replacedAfter('a part numbered out of place', () => parts.set(r1, 'layout', 1, { seq: 7 }));
      await replacedAfter("a field's only part lost", () => parts.drop(r1, 'insights', 0));
      const image = randomBytes(2 * PART + 3);
      assert.equal(await store.saveCorpusImage(key, image), true);
      assert.equal(await store.saveCorpusImage(key, randomBytes(10)), false, 'a whole image is kept');
      await parts.drop(r1, 'corpus', 1);
      await assert.rejects(store.corpusImage(key), DamagedSnapshotError);
      const again = randomBytes(PART + 5);
      assert.equal(await store.saveCorpusImage(key, again), true, 'a damaged image is replaced');
      assert.deepEqual(Buffer.concat((await store.corpusImage(key))!), again);
      const second = await store.newestSnapshot(r1, BASE, FORMAT);
      assert.equal(second && joinedSnapshot(second.snapshot).layout.length, 3 * PART, 'its snapshot untouched');
    });

    test('the newest revision and the one before keep their parts; older ones go with their row; the first snapshot of a revision stays', async () => {
      const [r1, r2, r3] = [await newRevision(store, 1), await newRevision(store, 2), await newRevision(store, 3)];
      const s1 = snapshot(r1, { reviews: 2_500, insights: 700, layout: 1_200 });
      const s2 = snapshot(r2, { reviews: 1_500, insights: 300, layout: 4_000 });
      await store.saveSnapshot(s1);
      await store.saveSnapshot(s2);
      await store.saveSnapshot(snapshot(r2, { reviews: 100, insights: 100, layout: 100 }));
      assert.deepEqual(joinedOf(await store.newestSnapshot(r2, BASE, FORMAT)), s2, 'the first snapshot of a revision is kept');
      assert.deepEqual(joinedOf(await store.newestSnapshot(r1, BASE, FORMAT)), s1, 'the one before is kept');
      const s3 = snapshot(r3, { reviews: 3_100, insights: 10, layout: 999 });
      await store.saveSnapshot(s3);
      assert.equal(await store.newestSnapshot(r1, BASE, FORMAT), null);
      assert.deepEqual(await partLengths(raw, r1), {}, 'no part of a dropped revision is left');
      assert.deepEqual(joinedOf(await store.newestSnapshot(r3, BASE, FORMAT)), s3);
      assert.deepEqual(joinedOf(await store.newestSnapshot(r2, BASE, FORMAT)), s2);
      // A row deleted by hand leaves its parts: a snapshot stored again for that revision is read whole, without them.
      await raw.deleteFrom('catalog_snapshots').where('revision', '=', r3).execute();
      const again = snapshot(r3, { reviews: 1_001, insights: 20, layout: 30 });
      await store.saveSnapshot(again);
      assert.deepEqual(joinedOf(await store.newestSnapshot(r3, BASE, FORMAT)), again);
    });

    test('two writers replacing the same damaged snapshot at once both succeed, and what is read is one of theirs, whole', async () => {
      const r1 = await newRevision(store, 1);
      await store.saveSnapshot(snapshot(r1, { reviews: 3 * PART, insights: 10, layout: 3 * PART }));
      await parts.drop(r1, 'reviews', 2);
      const other = await Store.open(url, { snapshotPartBytes: PART });
      try {
        const [a, b] = [
          snapshot(r1, { reviews: 40 * PART, insights: 10, layout: 40 * PART }),
          snapshot(r1, { reviews: 40 * PART, insights: 20, layout: 40 * PART }),
        ];
        await Promise.all([store.saveSnapshot(a), other.saveSnapshot(b)]);
        const read = joinedOf(await store.newestSnapshot(r1, BASE, FORMAT));
        assert.ok(read);
        assert.ok([a, b].some((s) => s.insights.equals(read.insights) && s.reviews.equals(read.reviews) && s.layout.equals(read.layout)));
      } finally {
        await other.close();
      }
    });

    test('a corpus image is stored beside its snapshot in parts, read back whole, kept first, and goes with its revision', async () => {
      const [r1, r2, r3] = [await newRevision(store, 1), await newRevision(store, 2), await newRevision(store, 3)];
      const key = (revision: number) => ({ revision, base_url: BASE, engine: FORMAT });
      const image = randomBytes(2 * PART + 7);
      assert.equal(await store.saveCorpusImage(key(r1), image), false, 'not without its snapshot');
      assert.equal(await store.corpusImage(key(r1)), null);
      const s1 = snapshot(r1, { reviews: 1_500, insights: 300, layout: 400 });
      await store.saveSnapshot(s1);
      assert.equal(await store.corpusImage(key(r1)), null, 'a snapshot stored without one');
      assert.equal(await store.saveCorpusImage(key(r1), image), true);
      assert.deepEqual((await partLengths(raw, r1)).corpus, [PART, PART, 7]);
      assert.deepEqual(Buffer.concat((await store.corpusImage(key(r1)))!), image);
      assert.equal(await store.saveCorpusImage(key(r1), randomBytes(10)), false, 'the first one is kept');
      assert.deepEqual(Buffer.concat((await store.corpusImage(key(r1)))!), image);
      // Its last part gone: refused, not read short.
      const lastPart = await parts.get(r1, 'corpus', 2);
      await parts.drop(r1, 'corpus', 2);
      await assert.rejects(store.corpusImage(key(r1)), DamagedSnapshotError);
      await parts.put(lastPart);
      assert.deepEqual(Buffer.concat((await store.corpusImage(key(r1)))!), image);
      assert.equal(await store.corpusImage({ ...key(r1), base_url: 'https://another.example' }), null, 'another base URL');
      assert.equal(await store.corpusImage({ ...key(r1), engine: 'engine/2 catalog/1' }), null, 'another format');
      // A load reads the snapshot's own fields, not the image beside it.
      assert.deepEqual(joinedOf(await store.newestSnapshot(r1, BASE, FORMAT)), s1);
      await store.saveSnapshot(snapshot(r2, { reviews: 10, insights: 10, layout: 10 }));
      await store.saveSnapshot(snapshot(r3, { reviews: 10, insights: 10, layout: 10 }));
      assert.equal(await store.corpusImage(key(r1)), null, 'gone with its revision');
      assert.deepEqual(await partLengths(raw, r1), {});
    });

    test('a writer killed between two parts leaves the previous snapshot as it was and stores nothing of its own', async () => {
      const [r1, r2] = [await newRevision(store, 1), await newRevision(store, 2)];
      const s1 = snapshot(r1, { reviews: 5_000, insights: 2_000, layout: 3_000 });
      await store.saveSnapshot(s1);
      const writer = writerProcess(url, r2, writerSize, 512);
      await writer.opened;
      const release = await holdBetweenParts(url, r2, writer);
      writer.child.kill('SIGKILL');
      const exit = await writer.exited;
      await release();
      assert.equal(exit.signal, 'SIGKILL', `the writer was killed, not finished: ${writer.output()}`);
      assert.doesNotMatch(writer.output(), /saved/);
      assert.deepEqual(joinedOf(await store.newestSnapshot(r2, BASE, FORMAT)), s1, 'the previous snapshot, whole');
      assert.deepEqual(await partLengths(raw, r2), {}, 'no part of the killed write is left');
      const s2 = snapshot(r2, { reviews: 4_321, insights: 10, layout: 10 });
      await store.saveSnapshot(s2);
      assert.deepEqual(joinedOf(await store.newestSnapshot(r2, BASE, FORMAT)), s2, 'the next write stores the revision');
    });
  });
}

partsSuite(
  'sqlite',
  async () => ({ url: join(tempDir(), 'parts.db'), cleanup: async () => {} }),
  // The writer holds the file's write lock from its first part to its commit; with 32,768 parts to
  // write, once its log has grown by a megabyte it is between two of its first few thousand.
  async (url, _revision, writer) => {
    writer.go();
    const probe = new SQLite(url);
    probe.pragma('busy_timeout = 0');
    try {
      for (;;) {
        let locked = false;
        try {
          probe.exec('begin immediate');
          probe.exec('rollback');
        } catch (err) {
          if (!(err as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw err;
          locked = true;
        }
        if (locked && (statSync(`${url}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 1_000_000) break;
        assert.doesNotMatch(writer.output(), /saved/, 'the writer finished before it could be killed between parts');
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      probe.close();
    }
    return async () => {};
  },
  16 * 1024 * 1024,
);

partsSuite(
  'postgres',
  async () => {
    const db = await freshPgDatabase();
    return { url: db.url, cleanup: db.drop };
  },
  // Another transaction inserts the writer's fourth part first and keeps it uncommitted: the writer has
  // written the row and three parts and waits on that one until it is killed.
  async (url, revision, writer) => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('begin');
    await holder.query(
      "insert into catalog_snapshot_parts (revision, base_url, engine, name, seq, field_parts, field_bytes, bytes) values ($1, $2, $3, 'reviews', 3, 1, 1, $4)",
      [revision, BASE, FORMAT, Buffer.alloc(1)],
    );
    writer.go();
    for (;;) {
      const { rows } = await holder.query(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (rows[0].n > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    return async () => {
      await holder.query('rollback');
      await holder.end();
    };
  },
  8 * 1024,
  PG_SKIP,
);
