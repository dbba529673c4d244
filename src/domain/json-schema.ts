import { z } from 'zod';
import { InsightsSchema } from './insights.js';

type JsonSchema = Record<string, unknown>;

const COMPONENTS_URI = '#/components/schemas/';

/** A reference to a named component of the OpenAPI document. */
export const componentRef = (id: string) => ({ $ref: `${COMPONENTS_URI}${id}` });

/** The name a `$ref` points at, whichever document it is local to. */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

const strip = ({ $schema: _schema, $id: _id, ...rest }: JsonSchema) => rest;

/**
 * Every schema with an id (`.meta({ id })`), as OpenAPI components referencing each other by
 * `#/components/schemas/<id>`. Insights is named here rather than in its module because it is only
 * a component of the REST description.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  if (!z.globalRegistry.has(InsightsSchema)) z.globalRegistry.add(InsightsSchema, { id: 'Insights' });
  const { schemas } = z.toJSONSchema(z.globalRegistry, { uri: (id) => `${COMPONENTS_URI}${id}`, io: 'output', unrepresentable: 'any' });
  return Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, strip(v as JsonSchema)]));
}

/**
 * Domain schemas carry an id (`SearchQuery`, `Review`), so Zod emits the root as `{ $ref, $defs }`.
 * Many MCP clients read a tool's `properties` at the root and cannot follow a root `$ref`, so the
 * root definition is inlined; nested ids stay in `$defs` for the references that use them.
 */
export function inlineRootRef(json: JsonSchema): JsonSchema {
  const ref = typeof json.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(json.$ref) : null;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!ref || !defs?.[ref[1]]) return json;
  const { $ref: _ref, $defs: _defs, ...rest } = json;
  const { [ref[1]]: root, ...others } = defs;
  const stillUsed = JSON.stringify([root, others]).includes(`"#/$defs/${ref[1]}"`);
  const remaining = stillUsed ? defs : others;
  return { ...rest, ...root, ...(Object.keys(remaining).length > 0 ? { $defs: remaining } : {}) };
}

/**
 * A schema's own `#/$defs/…` references replaced by the definitions, so its fields can be listed;
 * a self-referencing definition stays a reference.
 */
export function inlineLocalRefs(root: JsonSchema): JsonSchema {
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const walk = (node: unknown, seen: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!node || typeof node !== 'object') return node;
    const { $ref, $defs: _defs, ...rest } = node as JsonSchema & { $ref?: string };
    const name = $ref?.startsWith('#/$defs/') ? $ref.slice('#/$defs/'.length) : undefined;
    if (name !== undefined && defs[name] && !seen.has(name)) return walk({ ...defs[name], ...rest }, new Set([...seen, name]));
    const out: JsonSchema = $ref ? { $ref } : {};
    for (const [k, v] of Object.entries(rest)) out[k] = walk(v, seen);
    return out;
  };
  return walk(root, new Set()) as JsonSchema;
}

/**
 * One schema as a document of its own (an MCP tool's input, a query's parameters). `inline: 'root'`
 * lifts the root definition out of `$defs`; `'all'` resolves every local reference.
 */
export function standalone(schema: z.ZodType, io: 'input' | 'output', { inline }: { inline: 'none' | 'root' | 'all' }): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  if (inline === 'root') return inlineRootRef(json);
  if (inline === 'all') return inlineLocalRefs(json);
  return json;
}
