import { EARLIEST_REVIEW_DATE, FUTURE_TOLERANCE_MS, type ImportRecord } from '../domain/index.js';
import type { RowError } from './errors.js';

/** The record's dates and timestamps outside [EARLIEST_REVIEW_DATE, now + a day], each with its field and reason. */
export function dateRangeErrors(record: ImportRecord, now: string): Omit<RowError, 'line' | 'index'>[] {
  const latest = new Date(Date.parse(now) + FUTURE_TOLERANCE_MS).toISOString();
  const latestDay = latest.slice(0, 10);
  const errors: Omit<RowError, 'line' | 'index'>[] = [];
  const check = (field: string, value: string | null | undefined, last: string) => {
    if (value == null) return;
    if (value < EARLIEST_REVIEW_DATE)
      errors.push({ field, reason: `${value} is before ${EARLIEST_REVIEW_DATE}, the earliest date accepted` });
    else if (value > last) errors.push({ field, reason: `${value} is more than a day after the import (${now.slice(0, 10)})` });
  };
  check('date', record.date, latestDay);
  check('owner_reply.date', record.owner_reply?.date, latestDay);
  check('published_at', record.published_at, latest);
  check('updated_at', record.updated_at, latest);
  return errors;
}
