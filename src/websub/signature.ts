import { createHmac } from 'node:crypto';

/** `X-Hub-Signature` value: HMAC-SHA256 of the exact body bytes, keyed by the subscriber's secret. */
export const hubSignature = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
