import { z } from 'zod';
import { MAX_REVIEW_TEXT, type Review, ReviewSchema } from './review.js';

/** Every field of a Review, in the contract's order: what `fields` may name. */
const REVIEW_FIELDS = Object.keys(ReviewSchema.shape) as (keyof Review)[];
/** The `compact` preset: enough for an agent to pick reviews and fetch the rest with get_review. */
const COMPACT_FIELDS: readonly (keyof Review)[] = ['id', 'rating', 'date', 'text'];
const COMPACT_TEXT_CHARS = 200;

/**
 * How much of each review a list returns, for agents on a token budget: the options every MCP tool that
 * returns a list of reviews takes beside its own. Without any, reviews come whole.
 */
export const ReviewViewSchema = z.object({
  fields: z
    .array(z.enum(REVIEW_FIELDS as [keyof Review, ...(keyof Review)[]]))
    .min(1)
    .max(REVIEW_FIELDS.length)
    .optional()
    // Canonical (contract order, id always in, no repeats): equal requests are equal values, so one memo entry.
    .transform((fs) => (fs === undefined ? undefined : REVIEW_FIELDS.filter((f) => f === 'id' || fs.includes(f))))
    .describe('only these Review fields, e.g. ["id","rating","date","text"]; id is always included; default: every field'),
  text_chars: z
    .int()
    .min(0)
    .max(MAX_REVIEW_TEXT)
    .optional()
    .describe('cut text to its first N characters; a cut review has text_truncated: true (text stays an exact prefix)'),
  compact: z
    .boolean()
    .optional()
    .describe(
      `shorthand for fields [${COMPACT_FIELDS.join(', ')}] and text_chars ${COMPACT_TEXT_CHARS}; fields or text_chars given beside it win`,
    ),
});
export type ReviewView = z.output<typeof ReviewViewSchema>;
/** The option names, for tools that separate them from their own arguments. */
export const REVIEW_VIEW_KEYS = Object.keys(ReviewViewSchema.shape) as (keyof ReviewView)[];

/** A review as a view returns it: id always, the other fields only when asked for. */
export const ReviewItemSchema = ReviewSchema.partial()
  .required({ id: true })
  .extend({ text_truncated: z.literal(true).optional().describe('text was cut to text_chars characters') })
  .describe('a Review, whole unless fields, text_chars or compact asked for less');
type ReviewItem = z.infer<typeof ReviewItemSchema>;

/** What a view keeps, resolved; null: the whole review. */
interface ResolvedView {
  fields: readonly (keyof Review)[];
  textChars: number | null;
}

export function resolveView(v: Partial<ReviewView>): ResolvedView | null {
  const fields = v.fields ?? (v.compact ? COMPACT_FIELDS : null);
  const textChars = v.text_chars ?? (v.compact ? COMPACT_TEXT_CHARS : null);
  if (fields === null && textChars === null) return null;
  return { fields: fields ?? REVIEW_FIELDS, textChars };
}

/** One review through a view: a new object with the kept fields, text cut at a character boundary. */
export function viewReview(r: Review, v: ResolvedView): ReviewItem {
  const out: Record<string, unknown> = {};
  for (const f of v.fields) out[f] = r[f];
  if (v.textChars !== null && typeof out.text === 'string' && out.text.length > v.textChars) {
    let end = v.textChars;
    // Never split a surrogate pair: the cut text must stay valid UTF-16.
    const last = r.text!.charCodeAt(end - 1);
    if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
    out.text = r.text!.slice(0, end);
    out.text_truncated = true;
  }
  return out as ReviewItem;
}
