import { z } from 'zod';
import { DATASETS, TOPICS } from './public-paths.js';

const MAX_CALLBACK_LENGTH = 2048;
/** WebSub: a secret shorter than 200 bytes. */
const MAX_SECRET_BYTES = 199;

/**
 * Echoed user input is shortened so an error message cannot be used to reflect large payloads, and
 * control characters are escaped so the answer stays one line of text.
 */
const clip = (s: string) =>
  (s.length > 40 ? `${s.slice(0, 40)}…` : s).replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const given = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** What is wrong with a callback, checked in the order a subscriber fixes them; null when it is fine. */
function callbackProblem(raw: unknown): string | null {
  if (!given(raw)) return 'hub.callback is required';
  if (raw.length > MAX_CALLBACK_LENGTH) return `hub.callback must be at most ${MAX_CALLBACK_LENGTH} characters`;
  if (!URL.canParse(raw)) return 'hub.callback is not an absolute URL';
  const url = new URL(raw);
  if (url.protocol !== 'https:') return 'hub.callback must be an https URL';
  if (url.username || url.password) return 'hub.callback must not contain a user name or password';
  if (url.hash) return 'hub.callback must not contain a fragment';
  // The canonical form is what is stored, and it can be longer than what was sent (percent-encoding).
  if (url.href.length > MAX_CALLBACK_LENGTH) return `hub.callback must be at most ${MAX_CALLBACK_LENGTH} characters`;
  return null;
}

const secretProblem = (raw: unknown): string | null => {
  if (typeof raw !== 'string') return null;
  if (raw === '') return 'hub.secret must not be empty when given';
  return Buffer.byteLength(raw, 'utf8') > MAX_SECRET_BYTES ? 'hub.secret must be shorter than 200 bytes' : null;
};

const LEASE = /^\d{1,12}$/;

/**
 * The form fields of POST /api/websub/hub: documented in OpenAPI and used by the hub to parse a request
 * (first value of each field; an empty field counts as absent). Each message names the field, as the
 * plain-text answer is all a subscriber sees. Which topics exist, the lease clamp and the address rules
 * are the hub's policy, applied after this.
 */
export const HubRequestFormSchema = z
  .object({
    'hub.callback': z
      .url({ protocol: /^https$/, error: (iss) => callbackProblem(iss.input) ?? 'hub.callback is not an absolute URL' })
      .max(MAX_CALLBACK_LENGTH, { error: (iss) => callbackProblem(iss.input) ?? undefined })
      .refine((s) => callbackProblem(s) === null, { error: (iss) => callbackProblem(iss.input) ?? undefined })
      .describe('HTTPS callback URL; no user name, password or fragment'),
    'hub.mode': z.enum(['subscribe', 'unsubscribe'], {
      error: (iss) =>
        given(iss.input)
          ? `hub.mode "${clip(iss.input)}" is not supported; use subscribe or unsubscribe`
          : 'hub.mode is required (subscribe or unsubscribe)',
    }),
    'hub.topic': z
      .url({ error: (iss) => (given(iss.input) ? 'hub.topic is not a known topic' : 'hub.topic is required') })
      .describe(`one of ${TOPICS.map((t) => DATASETS[t].path).join(', ')}`),
    'hub.lease_seconds': z
      .string()
      .regex(LEASE, { error: 'hub.lease_seconds must be a non-negative integer' })
      .transform(Number)
      .pipe(z.int().min(0))
      .optional()
      .describe('requested lease in seconds; clamped by the hub, ignored on unsubscribe'),
    'hub.secret': z
      .string()
      .min(1, { error: (iss) => secretProblem(iss.input) ?? undefined })
      .max(MAX_SECRET_BYTES, { error: (iss) => secretProblem(iss.input) ?? undefined })
      .refine((s) => secretProblem(s) === null, { error: (iss) => secretProblem(iss.input) ?? undefined })
      .optional()
      .describe('HMAC key for X-Hub-Signature (under 200 bytes)'),
  })
  .meta({ id: 'HubRequest' });
