import { createHash } from 'node:crypto';

/** A short, stable digest of a JSON-serialisable value (row versions, analysis keys). */
export const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 32);
