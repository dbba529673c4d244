import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { inlineRootRef } from '../domain/index.js';

type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];
type JsonSchema = Record<string, unknown>;

/**
 * A domain Zod schema as the SDK consumes it, with its JSON Schema converted once. The SDK builds a
 * fresh server per HTTP request and converts tool schemas on every `tools/list` and on the first
 * `tools/call` of each instance; a Review has twenty formatted fields, so converting it per request
 * costs more than the search itself. Validation still runs through the Zod schema.
 */
export function withCachedJsonSchema<T extends z.ZodType>(
  schema: T,
  options: { rememberValid?: boolean } = {},
): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
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
      validate: options.rememberValid ? rememberingValid(std.validate) : std.validate,
      jsonSchema: { input: (o) => convert('input', o), output: (o) => convert('output', o) },
    },
  } as StandardSchemaWithJSON<z.input<T>, z.output<T>>;
}

/**
 * Output validation that passes an object it has already passed without checking it again. Tool results
 * are memoized per revision and sent as the same (never modified) object on every call, and the SDK
 * validates structuredContent on each one: for a 20-review search that re-check cost more than the rest
 * of the call. Only the verdict is used (the SDK discards the parsed value), and only successes are kept.
 */
function rememberingValid(validate: z.ZodType['~standard']['validate']): z.ZodType['~standard']['validate'] {
  const valid = new WeakSet<object>();
  return (value) => {
    if (typeof value === 'object' && value !== null && valid.has(value)) return { value };
    const result = validate(value);
    if (!(result instanceof Promise) && !result.issues && typeof value === 'object' && value !== null) valid.add(value);
    return result;
  };
}

/** Shared between requests, so nothing downstream may change it in place. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
