import type { StoredSource } from '../domain/index.js';
import { formatRowError, importRows, type RawRow } from '../ingest/index.js';
import type { Claimed, Store } from '../store/index.js';
import { ApiClient, type ApiClientOptions } from './api-client.js';
import type { Connector } from './connector.js';
import { newestOf } from './connector.js';
import { readSecrets, scrub } from './credentials.js';
import { SyncError } from './errors.js';
import { googleConnector, type TokenCache } from './google.js';
import { type SourceSettings, SourceSettingsSchema } from './settings.js';
import { trustpilotConnector } from './trustpilot.js';

/** The subset of a pino logger a sync uses. */
export interface SyncLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface SyncDeps {
  store: Store;
  log: SyncLog;
  api: ApiClientOptions;
  /** Access tokens kept between runs of this process. */
  tokens: TokenCache;
  intervalMs: number;
  /** A full reconciliation (which unpublishes what the platform no longer has) at most this often. */
  fullIntervalMs: number;
  leaseMs: number;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
}

export interface SyncOutcome {
  source: string;
  ok: boolean;
  full: boolean;
  pages: number;
  seen: number;
  added: number;
  updated: number;
  unpublished: number;
  revision: number | null;
  error?: string;
}

export function parseSettings(row: StoredSource): SourceSettings {
  const parsed = SourceSettingsSchema.safeParse(JSON.parse(row.settings));
  if (!parsed.success) throw new SyncError(row.name, `stored settings are invalid: run \`reviewcast sources add ${row.kind}\` again`);
  return parsed.data;
}

function connectorFor(name: string, settings: SourceSettings, secrets: Record<string, string>, api: ApiClient, deps: SyncDeps): Connector {
  return settings.kind === 'google'
    ? googleConnector(name, settings, secrets, api, deps.tokens, deps.now)
    : trustpilotConnector(name, settings, secrets, api);
}

/**
 * One run for a claimed source: read every changed page first, then import them in ONE transaction
 * through the file import's pipeline (dedupe by platform id, validation, revision only on change).
 * Any failure before the import (a malformed page, an auth error, retries exhausted) writes nothing,
 * and the checkpoint stays where it was, so the next run (here or on another replica) starts again
 * from it. A full run imports with --sync semantics: reviews the platform no longer has are unpublished.
 */
export async function syncClaimed(deps: SyncDeps, claimed: Claimed, opts: { full?: boolean } = {}): Promise<SyncOutcome> {
  const now = deps.now ?? Date.now;
  const row = claimed.source;
  const started = now();
  const full = Boolean(opts.full) || row.last_full_at == null || started - row.last_full_at >= deps.fullIntervalMs;
  const out: SyncOutcome = { source: row.name, ok: false, full, pages: 0, seen: 0, added: 0, updated: 0, unpublished: 0, revision: null };
  let secrets: Record<string, string> = {};
  let api: ApiClient | null = null;
  deps.log.info({ source: row.name, full, checkpoint: full ? null : row.checkpoint }, 'sync: started');
  try {
    const settings = parseSettings(row);
    secrets = await readSecrets(row.name, settings.kind, settings.credentials, deps.env);
    const bases = settings.kind === 'google' ? [settings.apiBase, settings.tokenUrl] : [settings.apiBase];
    api = new ApiClient(row.name, bases, deps.api);
    const connector = connectorFor(row.name, settings, secrets, api, deps);
    // The import's rows as the pages come (the import lets each go once it has validated it).
    const rows: RawRow[] = [];
    const newest: (string | null)[] = [full ? null : row.checkpoint];
    for await (const page of connector.changedSince(full ? null : row.checkpoint)) {
      out.pages++;
      for (const value of page.records) rows.push({ index: rows.length, value });
      newest.push(page.newest);
      if (!(await deps.store.sources.extendClaim(claimed, now() + deps.leaseMs)))
        throw new SyncError(row.name, 'the sync claim expired and another worker took it over; this run wrote nothing');
    }
    out.seen = rows.length;
    const report = await importRows(deps.store, rows, [], { sync: full });
    if (!report.written) {
      const first = report.invalid[0];
      throw new SyncError(
        row.name,
        `${report.invalid.length} review(s) from the platform failed validation, nothing was written (first: ${first ? formatRowError(first) : 'unknown'})`,
      );
    }
    Object.assign(out, {
      ok: true,
      added: report.added,
      updated: report.updated,
      unpublished: report.unpublished,
      revision: report.revision?.id ?? null,
    });
    await deps.store.sources.finish(
      claimed,
      { ok: true, value: { checkpoint: newestOf(newest), full, seen: out.seen } },
      now(),
      started + deps.intervalMs,
    );
    deps.log.info({ ...withoutError(out), requests: api.counters.requests, retries: api.counters.retries }, 'sync: done');
  } catch (err) {
    // Messages are ours (SyncError) or a library's: either way, no secret value leaves this function.
    out.error = scrub(
      err instanceof SyncError ? err.message : `${row.name}: sync failed: ${(err as Error)?.message ?? String(err)}`,
      secrets,
    );
    await deps.store.sources.finish(claimed, { ok: false, error: out.error }, now(), started + deps.intervalMs);
    deps.log.warn({ source: row.name, error: out.error, full, pages: out.pages }, 'sync: failed; data kept as it was');
  } finally {
    await api?.close();
  }
  return out;
}

const withoutError = ({ error: _e, ...rest }: SyncOutcome) => rest;

/** Syncs every due source this process can claim (the worker's tick). */
export async function syncDue(deps: SyncDeps): Promise<SyncOutcome[]> {
  const now = deps.now ?? Date.now;
  const done: SyncOutcome[] = [];
  for (;;) {
    const claimed = await deps.store.sources.claim(now(), deps.leaseMs);
    if (!claimed) return done;
    done.push(await syncClaimed(deps, claimed));
  }
}

/** `reviewcast sync [SOURCE]`: one run of the named source (or of each), due or not; a source another worker is syncing is reported busy. */
export async function syncNow(
  deps: SyncDeps,
  name?: string,
  opts: { full?: boolean } = {},
): Promise<(SyncOutcome | { source: string; busy: true })[]> {
  const now = deps.now ?? Date.now;
  const names = name ? [name] : (await deps.store.sources.list()).map((s) => s.name);
  const out: (SyncOutcome | { source: string; busy: true })[] = [];
  for (const n of names) {
    const claimed = await deps.store.sources.claim(now(), deps.leaseMs, n);
    out.push(claimed ? await syncClaimed(deps, claimed, opts) : { source: n, busy: true });
  }
  return out;
}
