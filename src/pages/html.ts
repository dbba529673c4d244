/**
 * The template layer: a tagged template that escapes every interpolated value unless it is already
 * `Html`. Pages are plain functions returning `Html`, so a review text can never become markup.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values alike (templates always quote attributes). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

function render(part: Part): string {
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  // `false` and nullish render nothing, so `${cond && html`…`}` reads naturally.
  if (part === null || part === undefined || part === false || part === true) return '';
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/**
 * JSON inside a <script> data block: `<` is escaped so no value can close the element, and the line
 * separators that JavaScript once rejected are escaped too.
 */
export const jsonScript = (value: unknown) =>
  new Html(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
