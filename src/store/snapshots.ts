import { sql } from 'kysely';
import {
  DamagedSnapshotError,
  SNAPSHOT_BYTES_FIELDS,
  type SnapshotBytesField,
  type StoredSnapshot,
  type StoredSnapshotParts,
} from '../domain/index.js';
import type { Db, DialectAdapter, Queryable } from './dialect.js';
import type { CatalogSnapshotPartTable } from './schema.js';

/**
 * The largest part a snapshot's bytes are stored in: far below SQLite's limit for one value
 * (1,000,000,000 bytes) and what the PostgreSQL client can read as hex text (a V8 string), and short
 * enough that reading one (SQLite reads on the calling thread) is a short pause. Under the 1 MiB mmap
 * threshold `serve` runs with (src/cli/memory-settings.ts), so each part read comes from malloc's heap,
 * reusing the memory of parts already let go. At 16 MiB each one was mapped afresh and its pages faulted
 * in: a restart at 100k took 2.42–2.63 s instead of 2.21–2.24 s on Node 26, and 2.14–2.48 s instead of
 * 2.03–2.14 s on Node 20.
 */
export const SNAPSHOT_PART_BYTES = 960 * 1024;

export type SnapshotKey = Pick<StoredSnapshot, 'revision' | 'base_url' | 'engine'>;

/** The parts a corpus image is stored in, beside its revision's snapshot. */
const CORPUS = 'corpus';
type PartName = CatalogSnapshotPartTable['name'];

/**
 * Keeps the first snapshot written for a revision (every builder renders the same bytes) unless its parts
 * are not whole, and drops older revisions' (all but the one before it). The row and all its parts are one
 * transaction: a process killed between two parts leaves the snapshots as they were.
 */
export async function saveSnapshot(db: Db, adapter: DialectAdapter, snap: StoredSnapshot, partBytes: number): Promise<void> {
  const key: SnapshotKey = { revision: snap.revision, base_url: snap.base_url, engine: snap.engine };
  await db.transaction().execute(async (trx) => {
    const { revision, base_url, engine, insights_core, created_at } = snap;
    const inserted = await trx
      .insertInto('catalog_snapshots')
      .values({ revision, base_url, engine, insights_core, created_at })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    const fresh = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    // A row already there is held first, so two replicas replacing the same damaged snapshot take turns (the
    // second then finds it whole). A damaged one (a load refused it) is replaced, its corpus image with it.
    if (!fresh) await lockSnapshot(trx, adapter, key);
    if (fresh || !(await allWhole(trx, adapter, key, SNAPSHOT_BYTES_FIELDS))) {
      // Parts a row was deleted without (by hand, or by a connection that does not cascade) are not this snapshot's.
      await deleteParts(trx, key).execute();
      for (const name of SNAPSHOT_BYTES_FIELDS) await writeParts(trx, key, name, snap[name], partBytes);
    }
    await trx
      .deleteFrom('catalog_snapshot_parts')
      .where('revision', '<', snap.revision - 1)
      .execute();
    await trx
      .deleteFrom('catalog_snapshots')
      .where('revision', '<', snap.revision - 1)
      .execute();
  });
}

/** A snapshot's parts, or only those of `name`. */
const deleteParts = (q: Queryable, key: SnapshotKey, name?: PartName) =>
  q.deleteFrom('catalog_snapshot_parts').where((eb) => eb.and(name === undefined ? key : { ...key, name }));

/** The snapshot's row, held until commit (PostgreSQL; SQLite's writer holds the file), or undefined when there is none. */
const lockSnapshot = (q: Queryable, adapter: DialectAdapter, key: SnapshotKey) =>
  adapter
    .lockRow(
      q
        .selectFrom('catalog_snapshots')
        .select('revision')
        .where((eb) => eb.and(key)),
    )
    .executeTakeFirst();

/**
 * Each named field that has parts: its part count when they are whole, `damaged` when not. Counted in the
 * database without reading the bytes: whole is numbered from 0 up without a gap, as many and as long in all as
 * each part records (so a part missing anywhere, out of place, of another length or past the count is seen).
 */
async function storedFields(
  q: Queryable,
  adapter: DialectAdapter,
  key: SnapshotKey,
  names: readonly PartName[],
): Promise<Map<PartName, number | 'damaged'>> {
  const fields = await q
    .selectFrom('catalog_snapshot_parts')
    .select((eb) => [
      'name',
      eb.fn.countAll<number>().as('parts'),
      eb.fn.min<number>('seq').as('first'),
      eb.fn.max<number>('seq').as('last'),
      eb.fn.min<number>('field_parts').as('least_count'),
      eb.fn.max<number>('field_parts').as('most_count'),
      eb.fn.min<number>('field_bytes').as('least_size'),
      eb.fn.max<number>('field_bytes').as('most_size'),
      sql<number>`sum(${adapter.byteLength}(bytes))`.as('size'),
    ])
    .where((eb) => eb.and(key))
    .where('name', 'in', names)
    .groupBy('name')
    .execute();
  return new Map(
    fields.map((f) => {
      const [parts, size] = [Number(f.parts), Number(f.size)];
      const whole =
        Number(f.first) === 0 &&
        Number(f.last) === parts - 1 &&
        [f.least_count, f.most_count].every((n) => Number(n) === parts) &&
        [f.least_size, f.most_size].every((n) => Number(n) === size);
      return [f.name, whole ? parts : 'damaged'];
    }),
  );
}

/** Whether each of the fields is stored whole. */
async function allWhole(q: Queryable, adapter: DialectAdapter, key: SnapshotKey, names: readonly PartName[]): Promise<boolean> {
  const stored = await storedFields(q, adapter, key, names);
  return names.every((name) => typeof stored.get(name) === 'number');
}

/** Writes a field's parts: at least one, so an empty field is stored too; each names the field's part count and size. */
async function writeParts(q: Queryable, key: SnapshotKey, name: PartName, bytes: Buffer, partBytes: number): Promise<void> {
  const count = Math.max(1, Math.ceil(bytes.length / partBytes));
  for (let seq = 0; seq < count; seq++) {
    const part = bytes.subarray(seq * partBytes, (seq + 1) * partBytes);
    await q
      .insertInto('catalog_snapshot_parts')
      .values({ ...key, name, seq, field_parts: count, field_bytes: bytes.length, bytes: part })
      .execute();
  }
}

/** How a caller takes a snapshot's parts as they are read. */
export interface SnapshotReading {
  /** Awaited after each part read on the calling thread (SQLite): a caller that serves requests lets them run. */
  pause?: () => Promise<void>;
  /** Each bytes field once all its parts are read, before the next field is: a loader can start on it (and take them over). */
  onField?: (name: SnapshotBytesField, parts: Buffer[]) => void;
}

/**
 * The newest snapshot up to revision `upTo` (for this base URL and format), with its revision's date.
 * Call it inside one consistent read: a writer may drop the revision while its parts are read. Each
 * field comes back in its stored parts, refused (DamagedSnapshotError) unless they are whole (storedFields).
 */
export async function newestSnapshot(
  q: Queryable,
  adapter: DialectAdapter,
  where: { upTo: number; baseUrl: string; engine: string },
  reading: SnapshotReading,
): Promise<{ snapshot: StoredSnapshotParts; revisionCreatedAt: string } | null> {
  const row = await q
    .selectFrom('catalog_snapshots as s')
    .innerJoin('revisions as r', 'r.id', 's.revision')
    .selectAll('s')
    .select('r.created_at as revision_created_at')
    .where('s.revision', '<=', where.upTo)
    .where('s.base_url', '=', where.baseUrl)
    .where('s.engine', '=', where.engine)
    .orderBy('s.revision', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const { revision_created_at, ...fields } = row;
  const key: SnapshotKey = { revision: Number(fields.revision), base_url: fields.base_url, engine: fields.engine };
  const stored = await storedFields(q, adapter, key, SNAPSHOT_BYTES_FIELDS);
  const bytes = {} as Record<SnapshotBytesField, Buffer[]>;
  for (const name of SNAPSHOT_BYTES_FIELDS) {
    const parts = stored.get(name);
    if (typeof parts !== 'number') throw new DamagedSnapshotError(key.revision, name);
    bytes[name] = await readParts(q, adapter, key, name, parts, reading.pause);
    reading.onField?.(name, bytes[name]);
  }
  return { snapshot: { ...fields, ...key, ...bytes }, revisionCreatedAt: revision_created_at };
}

/** A field's `parts` parts in order, found whole by storedFields in the same consistent read. */
async function readParts(
  q: Queryable,
  adapter: DialectAdapter,
  key: SnapshotKey,
  name: PartName,
  parts: number,
  pause?: () => Promise<void>,
): Promise<Buffer[]> {
  const where = { ...key, name };
  const select = () => q.selectFrom('catalog_snapshot_parts').select('bytes');
  if (adapter.readsOffThread) {
    // All of a field's parts in one query, so the server sends while this thread decodes: a query per
    // part had them take turns (the 65 MB a 100k restart reads, read with \`pg\` alone: 1.7–2.2 s, at once 0.73–0.78 s).
    const rows = await select()
      .where((eb) => eb.and(where))
      .orderBy('seq')
      .execute();
    return rows.map((r) => r.bytes);
  }
  const out: Buffer[] = [];
  for (let seq = 0; seq < parts; seq++) {
    const row = await select()
      .where((eb) => eb.and({ ...where, seq }))
      .executeTakeFirstOrThrow();
    out.push(row.bytes);
    await pause?.();
  }
  return out;
}

/**
 * Stores the corpus image of a stored snapshot's revision (what a corpus thread that starts again
 * takes its rows back from; CorpusModel.image), in parts, beside the snapshot: written after it, so the
 * snapshot is never held up for it. The first one written is kept, unless its parts are not whole (a load
 * refused it); none is written for a snapshot that is gone (its parts go with it). Writers of one snapshot's
 * image take turns on its row. Says whether it was written.
 */
export async function saveCorpusImage(
  db: Db,
  adapter: DialectAdapter,
  key: SnapshotKey,
  bytes: Buffer,
  partBytes: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockSnapshot(trx, adapter, key))) return false;
    if (await allWhole(trx, adapter, key, [CORPUS])) return false;
    await deleteParts(trx, key, CORPUS).execute();
    await writeParts(trx, key, CORPUS, bytes, partBytes);
    return true;
  });
}

/** The corpus image stored for a snapshot (saveCorpusImage), in its parts, or null when none is. Call it inside one consistent read. */
export async function corpusImage(
  q: Queryable,
  adapter: DialectAdapter,
  key: SnapshotKey,
  pause?: () => Promise<void>,
): Promise<Buffer[] | null> {
  const parts = (await storedFields(q, adapter, key, [CORPUS])).get(CORPUS);
  if (parts === undefined) return null;
  if (parts === 'damaged') throw new DamagedSnapshotError(key.revision, CORPUS);
  return readParts(q, adapter, key, CORPUS, parts, pause);
}
