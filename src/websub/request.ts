import { MAX_CALLBACK_LENGTH, MAX_SECRET_BYTES } from '../domain/index.js';
import { clampLease, type HubConfig } from './config.js';

export interface HubRequest {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  /** Canonical form (WHATWG URL serialisation): the identity of a subscription together with the topic. */
  callback: string;
  /** Granted lease (clamped); null on unsubscribe, where a requested lease is ignored. */
  leaseSeconds: number | null;
  secret: string | null;
}

export type ParseResult = { ok: true; request: HubRequest } | { ok: false; status: number; reason: string };

const fail = (reason: string, status = 400): ParseResult => ({ ok: false, status, reason });

/**
 * Validates a hub request (form fields already decoded). Pure: no I/O, so a rejected request never
 * causes an outbound call. Unknown parameters are ignored; a repeated parameter counts by its first value.
 * `refuseCallback` applies the outbound client's address rules to IP-literal and localhost callbacks.
 */
export function parseHubRequest(
  form: URLSearchParams,
  topics: readonly string[],
  config: Pick<HubConfig, 'leaseDefaultSeconds' | 'leaseMinSeconds' | 'leaseMaxSeconds'>,
  refuseCallback: (url: URL) => string | null,
): ParseResult {
  const mode = form.get('hub.mode');
  if (mode === null || mode === '') return fail('hub.mode is required (subscribe or unsubscribe)');
  if (mode !== 'subscribe' && mode !== 'unsubscribe')
    return fail(`hub.mode "${clip(mode)}" is not supported; use subscribe or unsubscribe`);

  const topic = form.get('hub.topic');
  if (!topic) return fail('hub.topic is required');
  if (!topics.includes(topic)) return fail(`hub.topic must be one of: ${topics.join(', ')}`);

  const rawCallback = form.get('hub.callback');
  if (!rawCallback) return fail('hub.callback is required');
  if (rawCallback.length > MAX_CALLBACK_LENGTH) return fail(`hub.callback must be at most ${MAX_CALLBACK_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(rawCallback);
  } catch {
    return fail('hub.callback is not an absolute URL');
  }
  if (url.protocol !== 'https:') return fail('hub.callback must be an https URL');
  if (url.username || url.password) return fail('hub.callback must not contain a user name or password');
  if (url.hash) return fail('hub.callback must not contain a fragment');
  const callback = url.href;
  if (callback.length > MAX_CALLBACK_LENGTH) return fail(`hub.callback must be at most ${MAX_CALLBACK_LENGTH} characters`);
  const refused = refuseCallback(url);
  if (refused) return fail(`hub.callback refused: ${refused}`, 403);

  let requested: number | undefined;
  const lease = form.get('hub.lease_seconds');
  if (mode === 'subscribe' && lease !== null && lease !== '') {
    if (!/^\d{1,12}$/.test(lease)) return fail('hub.lease_seconds must be a non-negative integer');
    requested = Number(lease);
  }

  const secret = form.get('hub.secret');
  if (secret !== null) {
    if (secret === '') return fail('hub.secret must not be empty when given');
    if (Buffer.byteLength(secret, 'utf8') > MAX_SECRET_BYTES) return fail('hub.secret must be shorter than 200 bytes');
  }

  return {
    ok: true,
    request: {
      mode,
      topic,
      callback,
      leaseSeconds: mode === 'subscribe' ? clampLease(requested, config) : null,
      secret: mode === 'subscribe' ? secret : null,
    },
  };
}

/**
 * Echoed user input is shortened so an error message cannot be used to reflect large payloads, and
 * control characters are escaped so the answer stays one line of text.
 */
const clip = (s: string) =>
  (s.length > 40 ? `${s.slice(0, 40)}…` : s).replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

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
