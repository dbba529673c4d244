import { OutboundClient } from '../websub/index.js';
import { SyncError } from './errors.js';

export interface ApiClientOptions {
  /** The test setting: allow loopback/private API bases (the tests' local fakes). */
  allowPrivate: boolean;
  /** An extra CA (added to the system roots) for the fakes' certificates. */
  caFile?: string | null;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  /** Attempts per request for 5xx, timeouts and 429 (the first included). */
  maxAttempts: number;
  /** First backoff after a 5xx or timeout; doubled per attempt. */
  retryBaseMs: number;
  /** A Retry-After longer than this fails the run (the next scheduled sync tries again). */
  maxRetryAfterMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_API_OPTIONS: ApiClientOptions = {
  allowPrivate: false,
  requestTimeoutMs: 30_000,
  maxResponseBytes: 8 << 20,
  maxAttempts: 4,
  retryBaseMs: 1_000,
  maxRetryAfterMs: 120_000,
};

export interface ApiResponse {
  status: number;
  body: Buffer;
}

export interface ApiCounters {
  requests: number;
  retries: number;
}

const USER_AGENT = 'Reviewcast-Sync/1';

/**
 * The connectors' only way out: the hub's outbound client (HTTPS, TLS verified, public addresses
 * only outside the test setting, no redirects, deadline and size cap) restricted to the source's
 * configured bases, with retries for what is worth retrying. A 401 or other 4xx is returned to the
 * connector, which knows what it means.
 */
export class ApiClient {
  private readonly client: OutboundClient;
  private readonly sleep: (ms: number) => Promise<void>;
  readonly counters: ApiCounters = { requests: 0, retries: 0 };

  constructor(
    private readonly source: string,
    private readonly bases: string[],
    private readonly opts: ApiClientOptions,
  ) {
    this.client = new OutboundClient({
      allowPrivateCallbacks: opts.allowPrivate,
      caFile: opts.caFile ?? undefined,
      requestTimeoutMs: opts.requestTimeoutMs,
      connectTimeoutMs: Math.min(10_000, opts.requestTimeoutMs),
      maxResponseBytes: opts.maxResponseBytes,
      connectionsPerOrigin: 2,
    });
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Only URLs under one of the configured bases are ever requested (a next-page link cannot send us elsewhere). */
  private allowed(href: string): boolean {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return false;
    }
    return this.bases.some((b) => {
      const base = new URL(b);
      return (
        url.origin === base.origin && (url.pathname === base.pathname || url.pathname.startsWith(`${base.pathname.replace(/\/$/, '')}/`))
      );
    });
  }

  async request(method: 'GET' | 'POST', href: string, headers: Record<string, string> = {}, body?: Buffer): Promise<ApiResponse> {
    const where = new URL(href).pathname;
    if (!this.allowed(href)) throw new SyncError(this.source, `refused to request ${where}: it is not under the configured API base`);
    for (let attempt = 1; ; attempt++) {
      this.counters.requests++;
      const res = await this.client.send(method, href, { 'user-agent': USER_AGENT, accept: 'application/json', ...headers }, body);
      let wait: number | null = null;
      let why: string;
      if (!res.ok) {
        why = res.error;
        wait = this.backoff(attempt);
      } else if (res.value.status === 429) {
        why = 'rate limited (429)';
        wait = retryAfterMs(res.value.headers['retry-after']) ?? this.backoff(attempt);
        if (wait > this.opts.maxRetryAfterMs)
          throw new SyncError(
            this.source,
            `rate limited: the platform asks to wait ${Math.ceil(wait / 1000)} s; the next scheduled sync retries`,
          );
      } else if (res.value.status >= 500) {
        why = `status ${res.value.status}`;
        wait = this.backoff(attempt);
      } else if (res.value.status >= 300 && res.value.status < 400) {
        throw new SyncError(
          this.source,
          `the API answered ${res.value.status} (a redirect, not followed) for ${where}; check the API base`,
        );
      } else {
        return { status: res.value.status, body: res.value.body };
      }
      if (attempt >= this.opts.maxAttempts)
        throw new SyncError(
          this.source,
          `${method} ${where} failed after ${attempt} attempts (last: ${why}); the next scheduled sync retries`,
        );
      this.counters.retries++;
      await this.sleep(wait);
    }
  }

  private backoff(attempt: number): number {
    return Math.min(60_000, this.opts.retryBaseMs * 2 ** (attempt - 1));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A JSON body, or undefined when it is not JSON (a malformed page is the caller's to report). */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
