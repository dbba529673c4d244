import { z } from 'zod';
import type { ImportRecordInput } from '../domain/index.js';
import { googleToRecord } from '../ingest/index.js';
import { type ApiClient, parseJson } from './api-client.js';
import type { Connector, ConnectorPage } from './connector.js';
import { newestOf } from './connector.js';
import { MalformedPageError, SyncError } from './errors.js';
import type { GoogleSettings } from './settings.js';

/** The v4 maximum (accounts.locations.reviews.list: "The maximum pageSize is 50"). */
export const GOOGLE_PAGE_SIZE = 50;
/** A bound on one run, far above any single location's review count. */
const MAX_PAGES = 2_000;

/** ListReviewsResponse: the envelope is checked here, each review by the import mapping. */
const ListReviewsResponseSchema = z.object({
  reviews: z.array(z.object({ updateTime: z.string().optional() }).passthrough()).optional(),
  averageRating: z.number().optional(),
  totalReviewCount: z.number().int().optional(),
  nextPageToken: z.string().optional(),
});

const TokenResponseSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().positive().optional() });

/** Access tokens per source, kept in memory between runs until they expire (never stored or logged). */
export type TokenCache = Map<string, { token: string; expiresAt: number }>;

export function googleConnector(
  source: string,
  settings: GoogleSettings,
  secrets: Record<string, string>,
  api: ApiClient,
  tokens: TokenCache,
  now: () => number = Date.now,
): Connector {
  const fix = '`reviewcast sources auth google`';

  async function refresh(): Promise<string> {
    const { body, error } = await tokenRequest(api, settings.tokenUrl, {
      grant_type: 'refresh_token',
      client_id: settings.clientId,
      client_secret: secrets.client_secret,
      refresh_token: secrets.refresh_token,
    });
    if (error) {
      if (error === 'invalid_grant') throw new SyncError(source, `refresh token rejected (invalid_grant): run ${fix}`);
      if (error === 'invalid_client' || error === 'unauthorized_client')
        throw new SyncError(source, `OAuth client rejected (${error}): check the client id and the client secret, then run ${fix}`);
      throw new SyncError(source, `token endpoint answered ${error}: run ${fix} if it persists`);
    }
    const parsed = TokenResponseSchema.safeParse(body);
    if (!parsed.success) throw new MalformedPageError(source, 'the token endpoint sent a response without access_token');
    // Refresh a minute early so a token does not expire between pages.
    const expiresAt = now() + Math.max(0, (parsed.data.expires_in ?? 3600) - 60) * 1000;
    tokens.set(source, { token: parsed.data.access_token, expiresAt });
    return parsed.data.access_token;
  }

  async function accessToken(): Promise<string> {
    const held = tokens.get(source);
    return held && held.expiresAt > now() ? held.token : refresh();
  }

  /** One page; a 401 (expired or revoked token) gets one refresh, then a clear error. */
  async function fetchPage(pageToken: string | undefined) {
    const url = new URL(`${settings.apiBase}/accounts/${settings.account}/locations/${settings.location}/reviews`);
    url.searchParams.set('pageSize', String(GOOGLE_PAGE_SIZE));
    url.searchParams.set('orderBy', 'updateTime desc');
    if (pageToken) url.searchParams.set('pageToken', pageToken);
    let token = await accessToken();
    for (let refreshed = false; ; refreshed = true) {
      const res = await api.request('GET', url.href, { authorization: `Bearer ${token}` });
      if (res.status === 401 && !refreshed) {
        tokens.delete(source);
        token = await refresh();
        continue;
      }
      if (res.status === 401) throw new SyncError(source, `access token rejected right after a refresh: run ${fix}`);
      if (res.status === 403)
        throw new SyncError(
          source,
          `permission denied for accounts/${settings.account}/locations/${settings.location}: check the ids, or run ${fix} with an account that manages the location`,
        );
      if (res.status === 404)
        throw new SyncError(
          source,
          `location accounts/${settings.account}/locations/${settings.location} not found: check --account and --location`,
        );
      if (res.status !== 200) throw new SyncError(source, `reviews.list answered status ${res.status}`);
      const parsed = ListReviewsResponseSchema.safeParse(parseJson(res.body));
      if (!parsed.success)
        throw new MalformedPageError(source, `a reviews.list page is not a ListReviewsResponse (${parsed.error.issues[0]?.message})`);
      return parsed.data;
    }
  }

  return {
    async *changedSince(checkpoint: string | null): AsyncGenerator<ConnectorPage> {
      let pageToken: string | undefined;
      for (let n = 0; n < MAX_PAGES; n++) {
        const page = await fetchPage(pageToken);
        const records: ImportRecordInput[] = [];
        const times: string[] = [];
        let reachedCheckpoint = false;
        for (const [i, review] of (page.reviews ?? []).entries()) {
          const mapped = googleToRecord(review);
          if ('errors' in mapped)
            throw new MalformedPageError(
              source,
              `review ${i + 1} of page ${n + 1}: ${mapped.errors.map((e) => `${e.field}: ${e.reason}`).join('; ')}`,
            );
          const changed = mapped.record.updated_at ?? mapped.record.published_at ?? null;
          // Pages come newest change first: what changed before the checkpoint was read by an earlier run.
          if (checkpoint && changed && changed < checkpoint) {
            reachedCheckpoint = true;
            break;
          }
          records.push(mapped.record);
          if (changed) times.push(changed);
        }
        yield { records, newest: newestOf(times) };
        if (reachedCheckpoint || !page.nextPageToken) return;
        pageToken = page.nextPageToken;
      }
      throw new SyncError(source, `more than ${MAX_PAGES} pages: stopped`);
    },
  };
}

/**
 * One POST to Google's OAuth token endpoint (RFC 6749 form body). `error` is null on a 200, else the
 * OAuth error code the endpoint named (`invalid_grant`, …) or `status N`.
 */
export async function tokenRequest(
  api: ApiClient,
  tokenUrl: string,
  fields: Record<string, string>,
): Promise<{ body: Record<string, unknown> | undefined; error: string | null }> {
  const form = Buffer.from(new URLSearchParams(fields).toString());
  const res = await api.request('POST', tokenUrl, { 'content-type': 'application/x-www-form-urlencoded' }, form);
  const body = parseJson(res.body) as Record<string, unknown> | undefined;
  const error = res.status === 200 ? null : typeof body?.error === 'string' ? body.error : `status ${res.status}`;
  return { body, error };
}
