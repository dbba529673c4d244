import { refName } from '../domain/index.js';
import { type Html, html } from './html.js';

/** The subset of JSON Schema (as z.toJSONSchema writes it) that the data-model tables describe. */
export interface JsonSchema {
  type?: string | string[];
  $ref?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  description?: string;
  default?: unknown;
  $defs?: Record<string, JsonSchema>;
}

export interface FieldRow {
  path: string;
  type: Html;
  required: boolean;
  description: string;
}

/** The anchor a schema's table has on /developers, so a field typed `Review` links to it. */
export const modelAnchor = (name: string) => `model-${name}`;

const isObject = (s: JsonSchema) => s.type === 'object' || (s.properties !== undefined && s.type === undefined);
const nonNull = (s: JsonSchema) => (s.anyOf ?? s.oneOf)?.filter((x) => x.type !== 'null') ?? [s];
const nullable = (s: JsonSchema) =>
  (Array.isArray(s.type) && s.type.includes('null')) || (s.anyOf ?? s.oneOf ?? []).some((x) => x.type === 'null');

function range(s: JsonSchema): string {
  if (s.minimum !== undefined && s.maximum !== undefined) return ` ${s.minimum}–${s.maximum}`;
  if (s.minimum !== undefined) return ` ≥ ${s.minimum}`;
  if (s.maximum !== undefined) return ` ≤ ${s.maximum}`;
  return s.maxLength !== undefined ? ` (≤ ${s.maxLength} chars)` : '';
}

/** A short human type: `string (date)`, `integer 1–5`, `Review[]`, `"a" | "b"`, `… | null`. */
export function typeOf(s: JsonSchema): Html {
  const parts = nonNull(s).map((x): Html => {
    if (x.$ref) {
      const name = refName(x.$ref);
      return html`<a href="#${modelAnchor(name)}">${name}</a>`;
    }
    if (x.const !== undefined) return html`${JSON.stringify(x.const)}`;
    if (x.enum) return html`${x.enum.map((v) => JSON.stringify(v)).join(' | ')}`;
    const t = (Array.isArray(x.type) ? x.type.filter((y) => y !== 'null') : [x.type ?? (x.properties ? 'object' : 'any')]).join(' | ');
    if (t === 'array') return html`${x.items ? typeOf(x.items) : 'any'}[]`;
    if (t === 'object' && !x.properties && typeof x.additionalProperties === 'object')
      return html`map of ${typeOf(x.additionalProperties)}`;
    return html`${t}${x.format ? ` (${x.format})` : ''}${range(x)}`;
  });
  return html`${parts.map((p, i) => html`${i > 0 && ' | '}${p}`)}${nullable(s) && ' | null'}`;
}

/**
 * Every field of an object schema, nested objects flattened to dotted paths (`address.locality`,
 * `reviews[].rating`). Named schemas ($ref) are linked, not repeated.
 */
export function fieldRows(schema: JsonSchema, prefix = '', depth = 0): FieldRow[] {
  const rows: FieldRow[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    rows.push({ path, type: typeOf(prop), required: required.has(name), description: prop.description ?? '' });
    if (depth >= 3) continue;
    for (const inner of nonNull(prop)) {
      if (isObject(inner) && inner.properties) rows.push(...fieldRows(inner, `${path}.`, depth + 1));
      else if (inner.type === 'array' && inner.items && isObject(inner.items))
        rows.push(...fieldRows(inner.items, `${path}[].`, depth + 1));
      else if (typeof inner.additionalProperties === 'object' && inner.additionalProperties.properties) {
        rows.push(...fieldRows(inner.additionalProperties, `${path}.{key}.`, depth + 1));
      }
    }
  }
  return rows;
}

export function fieldTable(rows: readonly FieldRow[], caption: string): Html {
  // Focusable and named because it scrolls sideways on a phone, and keyboard users must reach that.
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="${caption}"><table class="fields">
  <caption>${caption}</caption>
  <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Notes</th></tr></thead>
  <tbody>${rows.map((r) => html`<tr><th scope="row"><code>${r.path}</code></th><td>${r.type}</td><td>${r.required ? '' : html`<span class="optional">optional</span> `}${r.description}</td></tr>`)}</tbody>
</table></div>`;
}
