import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];
type JsonSchema = Record<string, unknown>;

/**
 * A domain Zod schema as the SDK consumes it, with its JSON Schema converted once. The SDK builds a
 * fresh server per HTTP request and converts tool schemas on every `tools/list` and on the first
 * `tools/call` of each instance; a Review has twenty formatted fields, so converting it per request
 * costs more than the search itself. Validation still runs through the Zod schema.
 */
export function withCachedJsonSchema<T extends z.ZodType>(schema: T): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  const std = schema['~standard'];
  const cache = new Map<string, JsonSchema>();
  const convert = (io: 'input' | 'output', options: JsonSchemaOptions): JsonSchema => {
    const key = `${io} ${options.target}`;
    let json = cache.get(key);
    if (!json) {
      json = deepFreeze(inlineRootRef(std.jsonSchema[io](options) as JsonSchema));
      cache.set(key, json);
    }
    return json;
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'reviewcast',
      validate: std.validate,
      jsonSchema: { input: (o) => convert('input', o), output: (o) => convert('output', o) },
    },
  } as StandardSchemaWithJSON<z.input<T>, z.output<T>>;
}

/**
 * Domain schemas carry an id (`SearchQuery`, `Review`), so Zod emits the root as `{ $ref, $defs }`.
 * Many MCP clients read a tool's `properties` at the root and cannot follow a root `$ref`, so the
 * root definition is inlined; nested ids stay in `$defs` for the references that use them.
 */
function inlineRootRef(json: JsonSchema): JsonSchema {
  const ref = typeof json.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(json.$ref) : null;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!ref || !defs?.[ref[1]]) return json;
  const { $ref: _ref, $defs: _defs, ...rest } = json;
  const { [ref[1]]: root, ...others } = defs;
  const stillUsed = JSON.stringify([root, others]).includes(`"#/$defs/${ref[1]}"`);
  const remaining = stillUsed ? defs : others;
  return { ...rest, ...root, ...(Object.keys(remaining).length > 0 ? { $defs: remaining } : {}) };
}

/** Shared between requests, so nothing downstream may change it in place. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
