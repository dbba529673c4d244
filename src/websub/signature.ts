import { createHmac } from 'node:crypto';

/**
 * `X-Hub-Signature` value: HMAC-SHA256 of the exact body bytes, keyed by the subscriber's secret. A body
 * in parts (a dataset of a revision) is hashed part by part, never joined.
 */
export function hubSignature(secret: string, body: Buffer | readonly Buffer[]): string {
  const hmac = createHmac('sha256', secret);
  for (const part of Buffer.isBuffer(body) ? [body] : body) hmac.update(part);
  return `sha256=${hmac.digest('hex')}`;
}
