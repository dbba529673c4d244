import { z } from 'zod';

export const MAX_CALLBACK_LENGTH = 2048;
/** WebSub: a secret shorter than 200 bytes. */
export const MAX_SECRET_BYTES = 199;

/**
 * The form fields of POST /api/websub/hub, as documented in OpenAPI. The hub parses the form itself
 * (first value of a repeated field, plain-text reasons, 403 for refused addresses) with these limits.
 */
export const HubRequestFormSchema = z
  .object({
    'hub.callback': z
      .url({ protocol: /^https$/ })
      .max(MAX_CALLBACK_LENGTH)
      .describe('HTTPS callback URL; no user name, password or fragment'),
    'hub.mode': z.enum(['subscribe', 'unsubscribe']),
    'hub.topic': z.url().describe('one of /feed.xml, /api/feed.json, /reviews.json'),
    'hub.lease_seconds': z.int().min(0).optional().describe('requested lease in seconds; clamped by the hub, ignored on unsubscribe'),
    'hub.secret': z.string().min(1).max(MAX_SECRET_BYTES).optional().describe('HMAC key for X-Hub-Signature (under 200 bytes)'),
  })
  .meta({ id: 'HubRequest' });
