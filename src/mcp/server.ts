import { type CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/index.js';
import { UnknownName } from './lookup.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { withCachedJsonSchema } from './schema.js';
import { READ_ONLY_ANNOTATIONS, TOOLS, type ToolSpec } from './tools.js';

export const SERVER_INFO = { name: 'reviewcast', title: 'Reviewcast', version: '1.0.0' } as const;

const INSTRUCTIONS =
  "Read-only access to one business's verified customer reviews and their sentiment analysis. " +
  'Start with get_business or get_insights_summary; search_reviews filters reviews; the list_* tools name the valid aspect, technician and service ids.';

/** Lists change only when the server is upgraded; a day is a safe cache lifetime for them. */
const LIST_CACHE = { ttlMs: 86_400_000, cacheScope: 'public' } as const;

/** Schemas converted once per process: the SDK asks for them on every request's fresh server. */
const PREPARED = TOOLS.map((spec) => ({
  spec,
  input: withCachedJsonSchema(spec.input),
  output: withCachedJsonSchema(spec.output),
}));

const ok = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

const failure = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

function runTool(spec: ToolSpec, catalog: () => Catalog, args: unknown): CallToolResult {
  try {
    return ok(spec.run(catalog(), args));
  } catch (err) {
    if (err instanceof UnknownName) return failure(err.message);
    throw err;
  }
}

/**
 * A fresh McpServer with every tool, resource and prompt, for one HTTP exchange. The SDK serves both protocol
 * eras from per-request instances, so this runs on every request: it only wires prepared pieces.
 */
export function createMcpServer(catalog: () => Catalog): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} },
    instructions: INSTRUCTIONS,
    cacheHints: {
      'tools/list': LIST_CACHE,
      'prompts/list': LIST_CACHE,
      'resources/templates/list': LIST_CACHE,
      'resources/list': { ttlMs: 60_000, cacheScope: 'public' },
      'server/discover': LIST_CACHE,
    },
  });
  for (const { spec, input, output } of PREPARED) {
    server.registerTool(
      spec.name,
      { title: spec.title, description: spec.description, inputSchema: input, outputSchema: output, annotations: { title: spec.title, ...READ_ONLY_ANNOTATIONS } },
      (args: unknown) => runTool(spec, catalog, args),
    );
  }
  registerResources(server, catalog);
  registerPrompts(server, catalog);
  return server;
}

/** The tool list as tools/list shows it, for the developer page. */
export function mcpToolDefinitions() {
  return PREPARED.map(({ spec, input, output }) => ({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: input['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
    outputSchema: output['~standard'].jsonSchema.output({ target: 'draft-2020-12' }),
    annotations: READ_ONLY_ANNOTATIONS,
  }));
}
