import { z } from 'zod';

const flag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'yes', 'no', ''])])
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'yes');

const UNIT_MS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION_HINT = 'a duration of at least 1 s, like 900, 90s, 15m or 1h';
/** A duration in milliseconds from "900", "90s", "15m" or "1h" (at least one second); with `auto`, that word too. */
const durationOr = <A extends string = never>(word?: A) =>
  z.union([z.string(), z.number()]).transform((v, ctx): number | A => {
    const text = String(v).trim();
    if (word !== undefined && text === word) return word;
    const m = text.match(/^(\d+(?:\.\d+)?)\s*(s|m|h)?$/);
    const ms = m ? Math.round(Number(m[1]) * UNIT_MS[m[2] ?? '']) : Number.NaN;
    if (!(ms >= 1000)) {
      ctx.addIssue({ code: 'custom', message: `expected ${word === undefined ? '' : `${word} or `}${DURATION_HINT}` });
      return z.NEVER;
    }
    return ms;
  });
const duration = durationOr();

function parseTrustProxy(v: string | undefined): boolean | number | string {
  if (!v || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  return /^\d+$/.test(v) ? Number(v) : v;
}

export const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATABASE_URL: z.string().min(1).default('./data/reviewcast.db'),
    /** api: HTTP surfaces only; worker: hub verifications and deliveries (plus health and metrics); all: both. */
    REVIEWCAST_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** How often a server checks the store for a revision written by another process when no hint came sooner (SQLite's log written, PostgreSQL's notification). */
    REVIEWCAST_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(100),
    /**
     * How long the corpus thread (it keeps the corpus the next revision's insights are built on: about
     * 150 MB of RSS at 100k reviews) stays without work before it exits; the next revision starts another, which
     * takes the served revision over first. `auto`: ten times the last take-over's time, 5 s to 10 min
     * (app/corpus-idle.ts). From then on (and 2 s after a start from the stored revision, or this long if
     * shorter) one holding nothing stands by, its modules loaded.
     */
    REVIEWCAST_CORPUS_IDLE: durationOr('auto').default('auto'),
    /** How long a shutdown waits for responses under way before it closes their connections. */
    REVIEWCAST_SHUTDOWN_GRACE: duration.default(10_000),
    /** Load the demo business when the database is empty (what `npm start` does on a fresh machine). */
    REVIEWCAST_DEMO_IF_EMPTY: flag.default(true),
    /** Behind a load balancer: `1` trusts X-Forwarded-For from any hop, a number that many hops, else a list of proxy addresses. */
    TRUST_PROXY: z.string().optional(),
    REVIEWCAST_HUB_ALLOW_PRIVATE_CALLBACKS: flag.default(false),
    REVIEWCAST_HUB_CA_FILE: z.string().optional(),
    /** How long a worker owns a claimed delivery before another replica may take it over. */
    REVIEWCAST_HUB_CLAIM_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
    /** Hub subscribe/unsubscribe requests per minute per client address (burst: a third of it, at least 1). */
    REVIEWCAST_HUB_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    REVIEWCAST_MCP_SESSION_TTL_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(30 * 60_000),
    REVIEWCAST_MCP_MAX_SESSIONS: z.coerce.number().int().min(1).default(10_000),
    /** MCP sessions (initialize) a client address may start per minute (burst: a third of it, at least 1); global across replicas. */
    REVIEWCAST_MCP_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Bytes every per-URL memo (search, since, filtered pages, permalinks, MCP results) may hold together. */
    REVIEWCAST_MEMO_BYTES: z.coerce
      .number()
      .int()
      .min(1 << 20)
      .default(64 << 20),
    /** Comma-separated Origins allowed on /mcp; unset = the server's own origin and localhost only. */
    REVIEWCAST_MCP_ALLOWED_ORIGINS: z.string().optional(),
    /** How often the worker role syncs each connected review source: seconds, or with a unit (90s, 15m, 1h). */
    REVIEWCAST_SYNC_INTERVAL: duration.default(15 * 60_000),
    /** How often a sync is a full reconciliation (reviews gone from the platform are unpublished). */
    REVIEWCAST_SYNC_FULL_INTERVAL: duration.default(24 * 3_600_000),
    /** How long a worker owns a source it syncs before another replica may take it over (renewed per page). */
    REVIEWCAST_SYNC_CLAIM_LEASE_MS: z.coerce.number().int().min(1000).default(120_000),
    /** Test setting: let connectors call loopback/private API bases (the local fakes). */
    REVIEWCAST_SYNC_ALLOW_PRIVATE: flag.default(false),
    /** Test setting: an extra CA for the fakes' certificates (added to the system roots). */
    REVIEWCAST_SYNC_CA_FILE: z.string().optional(),
    /** First retry delay after a platform 5xx or timeout (doubled per attempt). */
    REVIEWCAST_SYNC_RETRY_BASE_MS: z.coerce.number().int().min(1).default(1000),
  })
  .transform((c) => ({
    port: c.PORT,
    host: c.HOST,
    /** Null until the server knows its port (then http://localhost:PORT). */
    publicBaseUrl: c.PUBLIC_BASE_URL ? c.PUBLIC_BASE_URL.replace(/\/+$/, '') : null,
    databaseUrl: c.DATABASE_URL,
    role: c.REVIEWCAST_ROLE,
    logLevel: c.LOG_LEVEL,
    pollMs: c.REVIEWCAST_POLL_MS,
    corpusIdle: c.REVIEWCAST_CORPUS_IDLE,
    shutdownGraceMs: c.REVIEWCAST_SHUTDOWN_GRACE,
    demoIfEmpty: c.REVIEWCAST_DEMO_IF_EMPTY,
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    hubAllowPrivateCallbacks: c.REVIEWCAST_HUB_ALLOW_PRIVATE_CALLBACKS,
    hubCaFile: c.REVIEWCAST_HUB_CA_FILE ?? null,
    hubClaimLeaseMs: c.REVIEWCAST_HUB_CLAIM_LEASE_MS,
    hubRequestsPerMinute: c.REVIEWCAST_HUB_REQUESTS_PER_MINUTE,
    mcpSessionTtlMs: c.REVIEWCAST_MCP_SESSION_TTL_MS,
    mcpMaxSessions: c.REVIEWCAST_MCP_MAX_SESSIONS,
    mcpSessionsPerMinute: c.REVIEWCAST_MCP_SESSIONS_PER_MINUTE,
    memoBytes: c.REVIEWCAST_MEMO_BYTES,
    mcpAllowedOrigins: c.REVIEWCAST_MCP_ALLOWED_ORIGINS
      ? c.REVIEWCAST_MCP_ALLOWED_ORIGINS.split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : null,
    syncIntervalMs: c.REVIEWCAST_SYNC_INTERVAL,
    syncFullIntervalMs: c.REVIEWCAST_SYNC_FULL_INTERVAL,
    syncClaimLeaseMs: c.REVIEWCAST_SYNC_CLAIM_LEASE_MS,
    syncAllowPrivate: c.REVIEWCAST_SYNC_ALLOW_PRIVATE,
    syncCaFile: c.REVIEWCAST_SYNC_CA_FILE ?? null,
    syncRetryBaseMs: c.REVIEWCAST_SYNC_RETRY_BASE_MS,
  }));
export type Config = z.output<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** Configuration from the environment, overridden by explicit values (CLI flags, tests). Throws a readable error. */
export function loadConfig(overrides: Partial<ConfigInput> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.in.shape)) if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) raw[k] = v;
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
