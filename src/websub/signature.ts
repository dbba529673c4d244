import { createHmac } from 'node:crypto';

/** `X-Hub-Signature` value: HMAC-SHA256 of the exact body bytes, keyed by the subscriber's secret. */
export const hubSignature = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Callback URLs often carry a capability token in the query; logs get origin and path only. */
export function redactUrl(href: string): string {
  try {
    const u = new URL(href);
    return `${u.origin}${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return '(invalid URL)';
  }
}
