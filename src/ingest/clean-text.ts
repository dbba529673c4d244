/** What cleaning can change in a text, counted per review in the import summary. */
export type TextFix = 'surrogates' | 'newlines' | 'controls' | 'nfc';
export const TEXT_FIXES: readonly TextFix[] = ['controls', 'surrogates', 'newlines', 'nfc'];

// Lone surrogates cannot be stored as UTF-8: the store would keep their WTF-8 bytes and read back three U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const CR = /\r\n?/g;
// C0 controls except tab and line feed (CR is turned into LF first), DEL and the C1 controls: none of
// them is text, and they reach HTML and JSON consumers as raw bytes.
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * A text as it is stored: well-formed UTF-16 (an unpaired surrogate becomes one U+FFFD), line breaks
 * as LF, no control characters but tab and LF, NFC. Returns the text and what changed.
 */
export function cleanText(s: string, fixed: Set<TextFix>): string {
  let out = s;
  const wellFormed = out.replace(LONE_SURROGATE, '\uFFFD');
  if (wellFormed !== out) {
    out = wellFormed;
    fixed.add('surrogates');
  }
  if (out.includes('\r')) {
    out = out.replace(CR, '\n');
    fixed.add('newlines');
  }
  const stripped = out.replace(CONTROLS, '');
  if (stripped !== out) fixed.add('controls');
  const nfc = stripped.normalize('NFC');
  if (nfc !== stripped) fixed.add('nfc');
  return nfc;
}

/**
 * Cleans every string of an import record: its fields, and one level inside them (owner_reply.text,
 * verification.method, the technicians and services lists). Deeper values are left alone: no field
 * holds text there, so the schema rejects them, and the walk stays bounded on hostile nesting.
 */
export function cleanRecord(value: Record<string, unknown>, fixed: Set<TextFix>): Record<string, unknown> {
  const clean = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return cleanText(v, fixed);
    if (depth === 0 || typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return v.map((x) => clean(x, depth - 1));
    // fromEntries defines own properties, so a "__proto__" key stays a plain (ignored) key.
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x, depth - 1)]));
  };
  return clean(value, 2) as Record<string, unknown>;
}

const FIX_DESCRIPTIONS: Record<TextFix, string> = {
  controls: 'had control characters removed',
  surrogates: 'had unpaired surrogates replaced with U+FFFD',
  newlines: 'had CR or CRLF line breaks changed to LF',
  nfc: 'were normalised to Unicode NFC',
};

/** The import summary's account of cleaning, e.g. "3 reviews had control characters removed". */
export function describeCleaning(cleaned: Record<TextFix, number>): string[] {
  return TEXT_FIXES.filter((f) => cleaned[f] > 0).map(
    (f) =>
      `${cleaned[f]} review${cleaned[f] === 1 ? '' : 's'} ${cleaned[f] === 1 ? FIX_DESCRIPTIONS[f].replace(/^were /, 'was ') : FIX_DESCRIPTIONS[f]}`,
  );
}
