import { type Business, createMentionMatcher, type ImportRecord, ImportRecordSchema, type MentionMatcher } from '../domain/index.js';
import { cleanRecord, type TextFix } from './clean-text.js';
import { dateRangeErrors } from './date-range.js';
import type { RowError } from './errors.js';
import type { RawRow } from './formats.js';
import { fingerprint } from './identity.js';

export interface NormalizedReview {
  record: ImportRecord;
  /** (source, source review id) when the platform has ids, else the content fingerprint. */
  key: string;
  fingerprint: string;
  technicians: string[];
  services: string[];
  service_area: string | null;
  /** What cleaning changed in the row's texts (reported as counts in the import summary). */
  fixed: ReadonlySet<TextFix>;
}

export interface Resolvers {
  technicians: MentionMatcher;
  services: MentionMatcher;
  areas: MentionMatcher;
}

export const resolversFor = (b: Business | null): Resolvers => ({
  technicians: createMentionMatcher(b?.technicians ?? []),
  services: createMentionMatcher(b?.services ?? []),
  areas: createMentionMatcher(b?.service_areas ?? []),
});

/** A short account of a bad value; containers are only named (a hostile one may be nested too deep to print). */
const describe = (v: unknown) => {
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object' && v !== null) return 'an object';
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

/**
 * Clean the row's texts, validate it against the import schema and the accepted date range (`now` is
 * the import's time), and resolve explicit attributions to the profile's ids.
 */
export function normalizeRow(row: RawRow, resolvers: Resolvers, now: string): NormalizedReview | RowError[] {
  const ref = { line: row.line, index: row.index };
  if (typeof row.value !== 'object' || row.value === null || Array.isArray(row.value))
    return [{ ...ref, field: '', reason: 'expected an object with review fields' }];
  const fixed = new Set<TextFix>();
  const value = cleanRecord(row.value as Record<string, unknown>, fixed);
  const parsed = ImportRecordSchema.safeParse(value);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => {
      const got = i.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k as PropertyKey], value);
      return {
        ...ref,
        field: i.path.join('.'),
        reason: `${i.message}${i.code === 'too_big' && typeof got === 'string' ? ` (got ${got.length} characters)` : i.code === 'too_big' ? '' : ` (got ${describe(got)})`}`,
      };
    });
  }
  const record = parsed.data;
  const errors: RowError[] = dateRangeErrors(record, now).map((e) => ({ ...ref, ...e }));
  const resolveAll = (field: 'technicians' | 'services', values: string[], m: MentionMatcher) =>
    values.flatMap((v) => {
      const id = m.resolve(v);
      if (!id)
        errors.push({
          ...ref,
          field,
          reason: `"${v}" is not a ${field === 'technicians' ? 'technician' : 'service'} of the business profile (give an id, name or alias)`,
        });
      return id ? [id] : [];
    });
  const technicians = [...new Set(resolveAll('technicians', record.technicians, resolvers.technicians))];
  const services = [...new Set(resolveAll('services', record.services, resolvers.services))];
  let service_area: string | null = null;
  if (record.service_area) {
    service_area = resolvers.areas.resolve(record.service_area);
    if (!service_area)
      errors.push({ ...ref, field: 'service_area', reason: `"${record.service_area}" is not a service area of the business profile` });
  }
  if (record.owner_reply && record.owner_reply.date < record.date)
    errors.push({
      ...ref,
      field: 'owner_reply.date',
      reason: `the reply (${record.owner_reply.date}) is dated before the review (${record.date})`,
    });
  if (errors.length) return errors;
  const fp = fingerprint(record.source, record.author, record.date, record.text);
  const key = record.source_review_id ? `id\u0000${record.source}\u0000${record.source_review_id}` : `fp\u0000${fp}`;
  return { record, key, fingerprint: fp, technicians, services, service_area, fixed };
}
