import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { SourceSettingsInput } from '../../src/connectors/index.js';
import type { TestPki } from '../helpers/index.js';

/** What a fake answers instead of the real thing, once (queued faults: 429, 500, a malformed page…). */
export interface Fault {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An HTTPS server on 127.0.0.1 with the test CA's certificate, logging every request. */
abstract class FakeApi {
  readonly requests: Seen[] = [];
  /** Faults for the reviews endpoint, taken one per request. */
  readonly faults: Fault[] = [];
  private server: Server | null = null;
  base = '';
  /** Delay before each answer (a slow platform, so a test can act mid-sync). */
  delayMs = 0;
  /** Requests this matches wait, unanswered, until `release()` (a test acts while a sync is mid-page). */
  hold: ((req: Seen) => boolean) | null = null;
  /** The requests waiting on `hold`. */
  readonly held: Seen[] = [];
  private waiting: (() => void)[] = [];

  constructor(private readonly pki: TestPki) {}

  async start(): Promise<this> {
    this.server = createServer({ key: this.pki.key, cert: this.pki.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'https://127.0.0.1');
        const seen = {
          method: req.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        };
        this.requests.push(seen);
        if (this.hold?.(seen)) {
          this.held.push(seen);
          this.waiting.push(() => this.handle(seen, res));
        } else if (this.delayMs > 0) setTimeout(() => this.handle(seen, res), this.delayMs);
        else this.handle(seen, res);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const addr = this.server.address();
    this.base = `https://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    return this;
  }

  /** Stops holding and answers every held request (its client may be gone: then the answer goes nowhere). */
  release(): void {
    this.hold = null;
    for (const answer of this.waiting.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  protected abstract handle(req: Seen, res: ServerResponse): undefined;

  protected json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): undefined {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  /** Serves the next queued fault, if any. */
  protected fault(res: ServerResponse): boolean {
    const f = this.faults.shift();
    if (!f) return false;
    this.json(res, f.status, f.body, f.headers);
    return true;
  }
}

export interface GoogleReview {
  name: string;
  reviewId: string;
  reviewer: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating: 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE';
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
}

const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;

/**
 * Google's OAuth token endpoint and My Business v4 accounts.locations.reviews.list, as documented:
 * refresh_token grant (form body) → access_token + expires_in; invalid_grant for an unknown refresh
 * token; Bearer tokens that expire; pageSize capped at 50 with an opaque nextPageToken; reviews in
 * updateTime desc order; 401 UNAUTHENTICATED for a missing or expired token.
 */
export class FakeGoogle extends FakeApi {
  readonly account = '1234567890';
  readonly location = '9876543210';
  readonly clientId = 'test-client.apps.googleusercontent.com';
  readonly clientSecret = `GOCSPX-${randomBytes(12).toString('hex')}`;
  refreshToken = `1//refresh-${randomBytes(16).toString('hex')}`;
  readonly reviews = new Map<string, GoogleReview>();
  private readonly tokens = new Map<string, number>();
  tokensIssued: string[] = [];
  tokenLifetimeS = 3600;

  get apiBase() {
    return `${this.base}/v4`;
  }
  /** The source settings that point at this fake. */
  settings(names: Record<string, string> = {}): SourceSettingsInput {
    const { account, location, clientId, apiBase, tokenUrl } = this;
    return { kind: 'google', account, location, clientId, apiBase, tokenUrl, credentials: { from: 'env', names } };
  }
  get tokenUrl() {
    return `${this.base}/token`;
  }

  /** `n` reviews with increasing times (2025), ids g-1…g-n. */
  seed(n: number, from = 1): void {
    for (let i = from; i < from + n; i++) {
      const t = new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
      this.reviews.set(`g-${i}`, {
        name: `accounts/${this.account}/locations/${this.location}/reviews/g-${i}`,
        reviewId: `g-${i}`,
        reviewer: { displayName: `Reviewer ${i}` },
        starRating: STARS[i % 5],
        comment: `Review number ${i}: the technician arrived on time and fixed the leak.`,
        createTime: t,
        updateTime: t,
      });
    }
  }

  /** Changes a review the way the platform does: the update time moves. */
  edit(id: string, change: Partial<GoogleReview>, at: string): void {
    const r = this.reviews.get(id)!;
    this.reviews.set(id, { ...r, ...change, updateTime: at });
  }

  expireTokens(): void {
    this.tokens.clear();
  }

  protected handle(req: Seen, res: ServerResponse): undefined {
    if (req.method === 'POST' && req.path === '/token') return this.token(req, res);
    const m = req.path.match(/^\/v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews$/);
    if (req.method !== 'GET' || !m) return this.json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    const auth = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    const exp = auth ? this.tokens.get(auth) : undefined;
    if (!exp || exp < Date.now())
      return this.json(res, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    if (m[1] !== this.account || m[2] !== this.location)
      return this.json(res, 404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
    if (this.fault(res)) return;
    const size = Math.min(50, Number(req.query.get('pageSize') ?? 50) || 50);
    const offset = req.query.get('pageToken') ? Number(Buffer.from(req.query.get('pageToken')!, 'base64url').toString()) : 0;
    const all = [...this.reviews.values()].sort((a, b) => (a.updateTime < b.updateTime ? 1 : -1));
    const page = all.slice(offset, offset + size);
    const body: Record<string, unknown> = {
      reviews: page,
      averageRating: all.reduce((s, r) => s + STARS.indexOf(r.starRating) + 1, 0) / Math.max(1, all.length),
      totalReviewCount: all.length,
    };
    if (offset + size < all.length) body.nextPageToken = Buffer.from(String(offset + size)).toString('base64url');
    this.json(res, 200, body);
  }

  private token(req: Seen, res: ServerResponse): undefined {
    const form = new URLSearchParams(req.body);
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret)
      return this.json(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    if (form.get('grant_type') === 'authorization_code') {
      if (form.get('code') !== 'good-code')
        return this.json(res, 400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
      this.refreshToken = `1//refresh-${randomBytes(16).toString('hex')}`;
      return this.json(res, 200, {
        access_token: this.issue(),
        expires_in: this.tokenLifetimeS,
        refresh_token: this.refreshToken,
        token_type: 'Bearer',
      });
    }
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== this.refreshToken)
      return this.json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    this.json(res, 200, {
      access_token: this.issue(),
      expires_in: this.tokenLifetimeS,
      scope: 'https://www.googleapis.com/auth/business.manage',
      token_type: 'Bearer',
    });
  }

  private issue(): string {
    const t = `ya29.${randomBytes(24).toString('base64url')}`;
    this.tokens.set(t, Date.now() + this.tokenLifetimeS * 1000);
    this.tokensIssued.push(t);
    return t;
  }
}

export interface TrustpilotReview {
  id: string;
  stars: number;
  title: string;
  text: string;
  language: string;
  createdAt: string;
  updatedAt: string | null;
  consumer: { id: string; displayName: string };
  companyReply: { text: string; createdAt: string; updatedAt?: string } | null;
}

/**
 * Trustpilot's GET /v1/business-units/{businessUnitId}/reviews: the API key in the `apikey` header,
 * page (1-based) and perPage (default 20, max 100), createdat.desc order, a `links` list with a
 * next-page entry while more pages exist; 401 for a missing or wrong key.
 */
export class FakeTrustpilot extends FakeApi {
  readonly businessUnit = '507f191e810c19729de860ea';
  apiKey = `tp-${randomBytes(16).toString('hex')}`;
  readonly reviews = new Map<string, TrustpilotReview>();

  get apiBase() {
    return `${this.base}/v1`;
  }
  /** The source settings that point at this fake. */
  settings(names: Record<string, string> = {}): SourceSettingsInput {
    return { kind: 'trustpilot', businessUnit: this.businessUnit, apiBase: this.apiBase, credentials: { from: 'env', names } };
  }

  seed(n: number, from = 1): void {
    for (let i = from; i < from + n; i++) {
      const t = new Date(Date.UTC(2025, 1, 1) + i * 3_600_000).toISOString();
      this.reviews.set(`tp-${i}`, {
        id: `tp-${i}`,
        stars: (i % 5) + 1,
        title: `Title ${i}`,
        text: `Trustpilot review ${i}: quick quote and a tidy boiler service.`,
        language: 'en',
        createdAt: t,
        updatedAt: null,
        consumer: { id: `c-${i}`, displayName: `Consumer ${i}` },
        companyReply: null,
      });
    }
  }

  protected handle(req: Seen, res: ServerResponse): undefined {
    const m = req.path.match(/^\/v1\/business-units\/([^/]+)\/reviews$/);
    if (req.method !== 'GET' || !m) return this.json(res, 404, { message: 'Not found' });
    if (req.headers.apikey !== this.apiKey) return this.json(res, 401, { message: 'Unauthorized', errorCode: 'InvalidApiKey' });
    if (m[1] !== this.businessUnit) return this.json(res, 404, { message: 'Business unit not found' });
    if (this.fault(res)) return;
    const perPage = Math.min(100, Number(req.query.get('perPage') ?? 20) || 20);
    const page = Math.max(1, Number(req.query.get('page') ?? 1) || 1);
    const all = [...this.reviews.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const link = (p: number, rel: string) => ({
      href: `${this.apiBase}/business-units/${m[1]}/reviews?page=${p}&perPage=${perPage}`,
      method: 'GET',
      rel,
    });
    const links = [];
    if (page > 1) links.push(link(page - 1, 'prev-page'));
    if (page * perPage < all.length) links.push(link(page + 1, 'next-page'));
    this.json(res, 200, { reviews: slice, links });
  }
}
