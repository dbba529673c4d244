import { z } from 'zod';

/** A real calendar date (zod's ISO date rejects 2025-02-30 as well as malformed strings). */
export const IsoDateSchema = z.iso.date().describe('Calendar date, YYYY-MM-DD');
/** RFC 3339 timestamp with an offset (we always emit UTC `Z`). */
export const TimestampSchema = z.iso.datetime({ offset: true }).describe('RFC 3339 timestamp');
export const HttpUrlSchema = z.url({ protocol: /^https?$/ });
/** Ids of technicians, services and areas: stable, URL-safe, chosen by the operator. */
export const SlugSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, "-" and "_" only');
