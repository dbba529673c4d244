import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { DEFAULT_API_OPTIONS, type SourceSettingsInput, SourceSettingsSchema, type SyncDeps, syncNow } from '../../src/connectors/index.js';
import type { Store } from '../../src/store/index.js';
import { rawDb, type TestPki, tempDir } from '../helpers/index.js';

/** Every log line a sync wrote, as the JSON a pino logger would write. */
export class CapturedLog {
  readonly lines: string[] = [];
  info(obj: object, msg?: string) {
    this.lines.push(JSON.stringify({ level: 'info', ...obj, msg }));
  }
  warn(obj: object, msg?: string) {
    this.lines.push(JSON.stringify({ level: 'warn', ...obj, msg }));
  }
}

export const sqliteUrl = () => join(tempDir('reviewcast-sync-'), 'reviewcast.db');

/** Sync deps against the fakes: loopback allowed (the test setting), the test CA, short backoffs, sleeps recorded. */
export function testDeps(store: Store, pki: TestPki, env: NodeJS.ProcessEnv) {
  const log = new CapturedLog();
  const sleeps: number[] = [];
  const deps: SyncDeps = {
    store,
    log,
    api: {
      ...DEFAULT_API_OPTIONS,
      allowPrivate: true,
      caFile: pki.caFile,
      retryBaseMs: 10,
      sleep: async (ms) => {
        sleeps.push(ms);
        await new Promise((r) => setTimeout(r, Math.min(ms, 1000)));
      },
    },
    tokens: new Map(),
    intervalMs: 15 * 60_000,
    fullIntervalMs: 24 * 3_600_000,
    leaseMs: 30_000,
    env,
  };
  return { deps, log, sleeps };
}

export async function addSource(store: Store, settings: SourceSettingsInput): Promise<void> {
  const parsed = SourceSettingsSchema.parse(settings);
  await store.sources.add({ name: parsed.kind, kind: parsed.kind, settings: JSON.stringify(parsed) }, Date.now());
}

/** One sync run of `name`; the outcome (a source never reports busy here: nothing else holds it). */
export async function syncOnce(deps: SyncDeps, name: string, full = false) {
  const [r] = await syncNow(deps, name, { full });
  if (!r || 'busy' in r) throw new Error('source busy');
  return r;
}

/** Reads what is stored through a connection of the test's own (the store offers no such reads). */
async function stored<T>(store: Store, read: (db: Kysely<any>) => Promise<T>): Promise<T> {
  const db = rawDb(store.location);
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

export const revisionCount = (store: Store) =>
  stored(store, async (db) =>
    Number(
      (
        await db
          .selectFrom('revisions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );

export const reviewsOf = (store: Store, source: string) =>
  stored(store, (db) => db.selectFrom('reviews').selectAll().where('source', '=', source).orderBy('source_review_id').execute());

export const sourceRows = (store: Store) => stored(store, (db) => db.selectFrom('review_sources').selectAll().execute());
