import { z } from 'zod';
import type { ImportRecordInput } from '../domain/index.js';
import { type ApiClient, parseJson } from './api-client.js';
import type { Connector, ConnectorPage } from './connector.js';
import { newestOf } from './connector.js';
import { MalformedPageError, SyncError } from './errors.js';
import type { TrustpilotSettings } from './settings.js';

/** The documented maximum of perPage for business-unit reviews. */
export const TRUSTPILOT_PAGE_SIZE = 100;
const MAX_PAGES = 2_000;

const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected a date-time');
const TrustpilotReviewSchema = z.object({
  id: z.string().min(1),
  stars: z.number().int().min(1).max(5),
  title: z.string().nullish(),
  text: z.string().nullish(),
  language: z.string().nullish(),
  createdAt: Timestamp,
  updatedAt: Timestamp.nullish(),
  consumer: z.object({ displayName: z.string().nullish() }).passthrough().nullish(),
  companyReply: z
    .object({ text: z.string().nullish(), createdAt: Timestamp.nullish(), updatedAt: Timestamp.nullish() })
    .passthrough()
    .nullish(),
});
const ReviewsPageSchema = z.object({
  reviews: z.array(z.unknown()),
  links: z.array(z.object({ rel: z.string(), href: z.string().optional() }).passthrough()).optional(),
});

const iso = (s: string) => new Date(Date.parse(s)).toISOString();

/** A Trustpilot business-unit review → our import record (null reason when it has the documented shape). */
export function trustpilotToRecord(value: unknown): { record: ImportRecordInput } | { error: string } {
  const parsed = TrustpilotReviewSchema.safeParse(value);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { error: `${i?.path.join('.') || 'review'}: ${i?.message}` };
  }
  const r = parsed.data;
  const created = iso(r.createdAt);
  const reply = r.companyReply?.text
    ? { text: r.companyReply.text, date: iso(r.companyReply.updatedAt ?? r.companyReply.createdAt ?? r.createdAt).slice(0, 10) }
    : null;
  return {
    record: {
      source: 'trustpilot',
      source_review_id: r.id,
      author: r.consumer?.displayName || 'A Trustpilot user',
      rating: r.stars,
      date: created.slice(0, 10),
      published_at: created,
      updated_at: r.updatedAt ? iso(r.updatedAt) : created,
      title: r.title || null,
      text: r.text ?? null,
      language: r.language ?? null,
      source_url: `https://www.trustpilot.com/reviews/${encodeURIComponent(r.id)}`,
      owner_reply: reply,
      verified: true,
      verification: { method: 'platform' },
    },
  };
}

/**
 * Business-unit reviews, newest first, `perPage` at a time. The endpoint has no "changed since"
 * filter (an old review can be edited or answered), so every run reads every page; the import writes
 * only what changed, and the checkpoint records the newest change seen.
 */
export function trustpilotConnector(
  source: string,
  settings: TrustpilotSettings,
  secrets: Record<string, string>,
  api: ApiClient,
): Connector {
  const fix = `check the API key (${settings.credentials.from === 'env' ? `$${settings.credentials.names.api_key ?? 'TRUSTPILOT_API_KEY'}` : settings.credentials.path}), then run \`reviewcast sync ${source}\``;
  return {
    async *changedSince(): AsyncGenerator<ConnectorPage> {
      for (let page = 1; page <= MAX_PAGES; page++) {
        const url = new URL(`${settings.apiBase}/business-units/${settings.businessUnit}/reviews`);
        url.searchParams.set('perPage', String(TRUSTPILOT_PAGE_SIZE));
        url.searchParams.set('page', String(page));
        url.searchParams.set('orderBy', 'createdat.desc');
        // The key goes in the apikey header, not the query, so it never appears in a URL.
        const res = await api.request('GET', url.href, { apikey: secrets.api_key });
        if (res.status === 401 || res.status === 403) throw new SyncError(source, `API key rejected (status ${res.status}): ${fix}`);
        if (res.status === 404) throw new SyncError(source, `business unit ${settings.businessUnit} not found: check --business-unit`);
        if (res.status !== 200) throw new SyncError(source, `business-unit reviews answered status ${res.status}`);
        const parsed = ReviewsPageSchema.safeParse(parseJson(res.body));
        if (!parsed.success)
          throw new MalformedPageError(source, `page ${page} is not a reviews page (${parsed.error.issues[0]?.message})`);
        const records: ImportRecordInput[] = [];
        for (const [i, review] of parsed.data.reviews.entries()) {
          const mapped = trustpilotToRecord(review);
          if ('error' in mapped) throw new MalformedPageError(source, `review ${i + 1} of page ${page}: ${mapped.error}`);
          records.push(mapped.record);
        }
        yield { records, newest: newestOf(records.map((r) => r.updated_at)) };
        const next = parsed.data.links?.some((l) => l.rel === 'next-page');
        if (!next || parsed.data.reviews.length === 0) return;
      }
      throw new SyncError(source, `more than ${MAX_PAGES} pages: stopped`);
    },
  };
}
