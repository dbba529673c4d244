const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** RFC 9110 §5.6.7: IMF-fixdate, then the two obsolete forms a recipient must still accept. */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTH}) ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date as epoch milliseconds, or null when the value is not one (RFC 9110 §5.6.7). Stricter
 * than Date.parse on purpose: `9999` or `2025-01-01` are not HTTP-dates, and a conditional header
 * carrying one must be ignored, not read as some far date.
 */
export function parseHttpDate(value: string, now = Date.now()): number | null {
  const parts = fields(value, now);
  if (!parts) return null;
  const [d, mon, year, h, mi, s] = parts;
  if (mon < 0 || h > 23 || mi > 59 || s > 60) return null;
  const t = Date.UTC(year, mon, d, h, mi, Math.min(s, 59));
  // Rejects day 0 and days past the month's end (Date.UTC would roll them over).
  const check = new Date(t);
  return check.getUTCDate() === d && check.getUTCMonth() === mon ? t : null;
}

/** Day, month index, year, hour, minute, second of whichever form matches. */
function fields(value: string, now: number): number[] | null {
  let m = IMF_FIXDATE.exec(value);
  if (m) return [Number(m[1]), MONTHS.indexOf(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  m = RFC850.exec(value);
  if (m) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    return [Number(m[1]), MONTHS.indexOf(m[2]), year, Number(m[4]), Number(m[5]), Number(m[6])];
  }
  m = ASCTIME.exec(value);
  if (m) return [Number(m[2]), MONTHS.indexOf(m[1]), Number(m[6]), Number(m[3]), Number(m[4]), Number(m[5])];
  return null;
}
