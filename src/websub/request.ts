import { HubRequestFormSchema, type Result } from '../domain/index.js';
import { clampLease, type HubConfig } from './config.js';
import { type HubError, InvalidHubRequestError, RefusedCallbackError } from './errors.js';

export interface HubRequest {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  /** Canonical form (WHATWG URL serialisation): the identity of a subscription together with the topic. */
  callback: string;
  /** Granted lease (clamped); null on unsubscribe, where a requested lease is ignored. */
  leaseSeconds: number | null;
  secret: string | null;
}

export type ParseResult = Result<HubRequest, HubError>;

/** The fields in the order they are checked: the first problem in this order is the one reported. */
const FIELDS = ['hub.mode', 'hub.topic', 'hub.callback', 'hub.lease_seconds', 'hub.secret'] as const;
type Field = (typeof FIELDS)[number];

/**
 * Validates a hub request (form fields already decoded) with `HubRequestFormSchema`, then the hub's
 * policy: known topics, the address rules for callbacks, the lease clamp. Pure: no I/O, so a rejected
 * request never causes an outbound call. Unknown parameters are ignored; a repeated parameter counts by
 * its first value; an empty field is absent, and a lease is read only on subscribe.
 * `refuseCallback` applies the outbound client's address rules to IP-literal and localhost callbacks.
 */
export function parseHubRequest(
  form: URLSearchParams,
  topics: readonly string[],
  config: Pick<HubConfig, 'leaseDefaultSeconds' | 'leaseMinSeconds' | 'leaseMaxSeconds'>,
  refuseCallback: (url: URL) => string | null,
): ParseResult {
  const fields: Partial<Record<Field, string>> = {};
  for (const f of FIELDS) {
    const v = form.get(f);
    if (v !== null && (v !== '' || f === 'hub.secret')) fields[f] = v;
  }
  if (fields['hub.mode'] !== 'subscribe') delete fields['hub.lease_seconds'];

  const problems = new Map<Field, HubError>();
  const parsed = HubRequestFormSchema.safeParse(fields);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const f = issue.path[0] as Field;
    if (!problems.has(f)) problems.set(f, new InvalidHubRequestError(issue.message));
  }
  const topic = fields['hub.topic'];
  if (topic && !topics.includes(topic))
    problems.set('hub.topic', new InvalidHubRequestError(`hub.topic must be one of: ${topics.join(', ')}`));
  if (!problems.has('hub.callback')) {
    const refused = refuseCallback(new URL(fields['hub.callback']!));
    if (refused) problems.set('hub.callback', new RefusedCallbackError(refused));
  }
  const first = FIELDS.find((f) => problems.has(f));
  if (first || !parsed.success) return { ok: false, error: problems.get(first!) ?? new InvalidHubRequestError('invalid hub request') };

  const r = parsed.data;
  const subscribe = r['hub.mode'] === 'subscribe';
  return {
    ok: true,
    value: {
      mode: r['hub.mode'],
      topic: r['hub.topic'],
      callback: new URL(r['hub.callback']).href,
      leaseSeconds: subscribe ? clampLease(r['hub.lease_seconds'], config) : null,
      secret: subscribe ? (r['hub.secret'] ?? null) : null,
    },
  };
}

/**
 * The verification (or denial) URL: the callback exactly as given, our parameters appended. The
 * subscriber's own query string is kept byte for byte (re-serialising it through URLSearchParams could
 * change its encoding).
 */
export function withQuery(callback: string, params: Record<string, string>): string {
  const ours = new URLSearchParams(params).toString();
  const url = new URL(callback);
  const sep = url.search.length > 1 ? '&' : callback.endsWith('?') ? '' : '?';
  return `${callback}${sep}${ours}`;
}
