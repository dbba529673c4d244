import { loadConfig } from '../config.js';
import {
  DEFAULT_API_OPTIONS,
  describeCredentials,
  parseSettings,
  SECRETS,
  type SourceKind,
  type SourceSettingsInput,
  SourceSettingsSchema,
  type SyncDeps,
  sourceStatuses,
} from '../connectors/index.js';
import type { Store } from '../store/index.js';

export interface AddFlags {
  account?: string;
  location?: string;
  clientId?: string;
  businessUnit?: string;
  apiBase?: string;
  tokenUrl?: string;
  credentialsFile?: string;
  clientSecretEnv?: string;
  refreshTokenEnv?: string;
  apiKeyEnv?: string;
}

/** The settings `sources add` stores: ids and where the secrets are, never the secrets. */
export function settingsFromFlags(kind: SourceKind, f: AddFlags): SourceSettingsInput {
  const credentials = f.credentialsFile
    ? { from: 'file' as const, path: f.credentialsFile }
    : {
        from: 'env' as const,
        names: (kind === 'google'
          ? {
              client_secret: f.clientSecretEnv ?? SECRETS.google.client_secret,
              refresh_token: f.refreshTokenEnv ?? SECRETS.google.refresh_token,
            }
          : { api_key: f.apiKeyEnv ?? SECRETS.trustpilot.api_key }) as Record<string, string>,
      };
  const common = { apiBase: f.apiBase, credentials };
  return kind === 'google'
    ? { kind, account: f.account ?? '', location: f.location ?? '', clientId: f.clientId ?? '', tokenUrl: f.tokenUrl, ...common }
    : { kind, businessUnit: f.businessUnit ?? '', ...common };
}

export async function addSource(store: Store, kind: SourceKind, flags: AddFlags): Promise<string> {
  const parsed = SourceSettingsSchema.safeParse(settingsFromFlags(kind, flags));
  if (!parsed.success) {
    const flag = (p: string) => `--${p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new Error(`${kind}: ${parsed.error.issues.map((i) => `${flag(String(i.path[0]))}: ${i.message}`).join('; ')}`);
  }
  const how = await store.sources.add({ name: kind, kind, settings: JSON.stringify(parsed.data) }, Date.now());
  return `source ${kind} ${how}; credentials from ${describeCredentials(kind, parsed.data.credentials)}. The worker syncs it within one interval, or run \`reviewcast sync ${kind}\` now.`;
}

/** `sources list`: settings without secrets (only where they are read from) and the sync state. */
export async function listSources(store: Store): Promise<string> {
  const rows = await store.sources.list();
  if (rows.length === 0) return 'no review sources (add one with `reviewcast sources add google|trustpilot`)';
  const statuses = new Map((await sourceStatuses(store)).map((s) => [s.name, s]));
  return rows
    .map((r) => {
      const st = statuses.get(r.name)!;
      let ids = '';
      let credentials = '(unreadable settings)';
      try {
        const s = parseSettings(r);
        ids =
          s.kind === 'google'
            ? `accounts/${s.account}/locations/${s.location} via ${s.apiBase}`
            : `business unit ${s.businessUnit} via ${s.apiBase}`;
        credentials = describeCredentials(s.kind, s.credentials);
      } catch {}
      return [
        `${r.name}  ${ids}`,
        `  credentials: ${credentials} (values never shown)`,
        `  status: ${st.status}; last success: ${st.last_success_at ?? 'never'}; reviews seen: ${st.reviews_seen}; next sync: ${st.next_sync_at}`,
        ...(st.last_error ? [`  last error (${st.last_error_at}): ${st.last_error}`] : []),
      ].join('\n');
    })
    .join('\n');
}

/** What a CLI sync or auth needs: the same settings as the server's worker, from the environment. */
export function syncDeps(store: Store, log: SyncDeps['log']): SyncDeps {
  const config = loadConfig();
  return {
    store,
    log,
    api: { ...DEFAULT_API_OPTIONS, allowPrivate: config.syncAllowPrivate, caFile: config.syncCaFile, retryBaseMs: config.syncRetryBaseMs },
    tokens: new Map(),
    intervalMs: config.syncIntervalMs,
    fullIntervalMs: config.syncFullIntervalMs,
    leaseMs: config.syncClaimLeaseMs,
  };
}
