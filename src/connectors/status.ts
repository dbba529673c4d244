import type { StoredSource } from '../domain/index.js';
import type { Store } from '../store/index.js';
import { type CredentialsRef, SECRETS, type SourceKind } from './settings.js';

export interface SourceStatus {
  name: string;
  kind: string;
  status: 'ok' | 'failing' | 'never synced';
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  reviews_seen: number;
  next_sync_at: string;
}

const iso = (ms: number | null) => (ms == null ? null : new Date(Number(ms)).toISOString());

export function statusOf(r: StoredSource): SourceStatus {
  const failing = r.last_error != null && (r.last_success_at == null || Number(r.last_error_at) >= Number(r.last_success_at));
  return {
    name: r.name,
    kind: r.kind,
    status: failing ? 'failing' : r.last_success_at == null ? 'never synced' : 'ok',
    last_success_at: iso(r.last_success_at),
    last_error: failing ? r.last_error : null,
    last_error_at: iso(r.last_error_at),
    reviews_seen: Number(r.reviews_seen),
    next_sync_at: iso(r.due_at)!,
  };
}

export async function sourceStatuses(store: Store): Promise<SourceStatus[]> {
  return (await store.sources.list()).map(statusOf);
}

const label = (s: string) => s.replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/** Prometheus text for every source (read from the store, so any replica reports the same). */
export function sourcesMetricsText(rows: SourceStatus[]): string {
  const lines: string[] = [];
  const gauge = (name: string, help: string, value: (s: SourceStatus) => number) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    for (const s of rows) lines.push(`${name}{source="${label(s.name)}"} ${value(s)}`);
  };
  const secs = (t: string | null) => (t ? Date.parse(t) / 1000 : 0);
  gauge('reviewcast_source_last_success_timestamp_seconds', 'End of the last successful sync (0: never).', (s) => secs(s.last_success_at));
  gauge('reviewcast_source_last_error_timestamp_seconds', 'End of the last failed sync (0: never).', (s) => secs(s.last_error_at));
  gauge('reviewcast_source_failing', '1 when the last sync of the source failed.', (s) => (s.status === 'failing' ? 1 : 0));
  lines.push('# HELP reviewcast_source_reviews_seen_total Reviews read from the platform by successful syncs.');
  lines.push('# TYPE reviewcast_source_reviews_seen_total counter');
  for (const s of rows) lines.push(`reviewcast_source_reviews_seen_total{source="${label(s.name)}"} ${s.reviews_seen}`);
  return rows.length ? `${lines.join('\n')}\n` : '';
}

/** Where the secrets come from, never what they are. */
export function describeCredentials(kind: SourceKind, ref: CredentialsRef): string {
  if (ref.from === 'file') return `file ${ref.path}`;
  return Object.keys(SECRETS[kind])
    .map((k) => `$${ref.names[k] ?? SECRETS[kind][k]}`)
    .join(', ');
}
