import { type CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { type Catalog, type ChangesReader, type MemoBudget, RevisionCache } from '../catalog/index.js';
import { REVIEW_VIEW_KEYS, type Review, type ReviewView, resolveView, viewReview } from '../domain/index.js';
import { UnknownName } from './lookup.js';
import { preparePrompts } from './prompts.js';
import { prepareResources } from './resources.js';
import { withCachedJsonSchema } from './schema.js';
import { READ_ONLY_ANNOTATIONS, TOOLS, type ToolSpec, type ToolStore } from './tools.js';

export const SERVER_INFO = { name: 'reviewcast', title: 'Reviewcast', version: '1.0.0' } as const;

const INSTRUCTIONS =
  "Read-only access to one business's verified customer reviews and their sentiment analysis. " +
  'Start with get_business or get_insights_summary; search_reviews filters reviews; the list_* tools name the valid aspect, technician and service ids.';

/** Lists change only when the server is upgraded; an hour of caching spares clients the round trip and still picks up an upgrade the same day. */
const LIST_CACHE = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

/** Schemas converted once per process: the SDK asks for them on every request's fresh server. */
const PREPARED = TOOLS.map((spec) => ({
  spec,
  input: withCachedJsonSchema(spec.input),
  output: withCachedJsonSchema(spec.output, { rememberValid: true }),
}));

const ok = (value: unknown, viewed: boolean, summary?: ToolSpec['summary']): CallToolResult => ({
  content: [{ type: 'text', text: summary ? summary(value as never, viewed) : JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

const failure = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * Results of one revision, keyed by tool and arguments: every tool answers as of the catalog's revision
 * (get_changes reads the store only up to it), so a repeated call (agents poll the same searches) costs neither the work nor the text copy again.
 * One per server factory, i.e. per catalog source. `copied`: bytes of structured content the result owns
 * (a review view's trimmed copies; otherwise it references catalog objects).
 */
type ResultCache = RevisionCache<{ result: CallToolResult; copied: number }>;

/** The tool's own arguments and the review view options, apart. */
function splitView(args: unknown): { own: Record<string, unknown>; view: ReviewView } {
  const own: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  const view: Record<string, unknown> = {};
  for (const k of REVIEW_VIEW_KEYS) {
    if (k in own) view[k] = own[k];
    delete own[k];
  }
  return { own, view: view as ReviewView };
}

/** The result with its list of reviews through the view (tombstones in a change list pass unchanged). */
async function runViewed(spec: ToolSpec, c: Catalog, args: unknown, store: ToolStore | null): Promise<{ value: unknown; viewed: boolean }> {
  if (!spec.reviewList) return { value: await spec.run(c, args, store!), viewed: false };
  const { own, view } = splitView(args);
  const value = (await spec.run(c, own, store!)) as Record<string, unknown>;
  const v = resolveView(view);
  if (!v) return { value, viewed: false };
  const list = value[spec.reviewList] as (Review | { removed_at: string })[];
  const items = list.map((r) => ('removed_at' in r ? r : viewReview(r, v)));
  return { value: { ...value, [spec.reviewList]: items }, viewed: true };
}

async function runTool(
  spec: ToolSpec,
  catalog: () => Catalog,
  args: unknown,
  results: ResultCache,
  store: ToolStore | null,
  brief: boolean,
): Promise<CallToolResult> {
  const c = catalog();
  const summary = brief ? spec.summary : undefined;
  // The validated arguments, view options included (in canonical form), in the schema's key order.
  const key = `${spec.name}\u0000${summary ? 's' : 'f'}${JSON.stringify(args)}`;
  try {
    let r = results.peek(c.revision, key)?.result;
    if (!r) {
      const { value, viewed } = await runViewed(spec, c, args, store);
      const copied = viewed ? 2 * JSON.stringify(value).length : 0;
      r = results.get(c.revision, key, () => ({ result: ok(value, viewed, summary), copied })).result;
    }
    // A fresh envelope per call: the SDK decorates the result it is given (per-era fields), the payload it only reads.
    return { content: r.content.map((part) => ({ ...part })), structuredContent: r.structuredContent };
  } catch (err) {
    if (err instanceof UnknownName) return failure(err.message);
    throw err;
  }
}

/** The one JSON-RPC request a server instance will answer, when the caller knows it. */
export interface Exchange {
  method: string;
  /** The tool, for tools/call. */
  name?: string;
  /** The protocol revision of the session or request, when known. */
  protocolVersion?: string;
}

/**
 * From 2025-06-18 a result's `structuredContent` is the result and the text block a courtesy ("SHOULD
 * also return the serialized JSON"): tools with a summary send that instead of a second full copy.
 * Older or unknown revisions get the full JSON text.
 */
const SUMMARY_TEXT_FROM = '2025-06-18';
const summaryTextFor = (exchange?: Exchange) => exchange?.protocolVersion !== undefined && exchange.protocolVersion >= SUMMARY_TEXT_FROM;

export type McpServerFactory = (exchange?: Exchange) => McpServer;

/**
 * A factory of fresh McpServers, one per HTTP exchange: the SDK serves both protocol eras from
 * per-request instances, so the factory runs on every request and only wires pieces prepared here
 * once. An instance answers exactly one request, so when that request is known it registers only
 * what the request can reach (a tools/call gets its one tool). Capabilities are declared in full
 * either way, and declaring them installs the SDK's list/call/read handlers, so an unknown tool
 * still gets the SDK's own "not found" error.
 */
export function createMcpServerFactory(catalog: () => Catalog, memo: MemoBudget, changes?: ChangesReader): McpServerFactory {
  const store: ToolStore | null = changes ? { changes } : null;
  const tools = PREPARED.filter((t) => !t.spec.readsStore || store);
  // The text copy is the bulk (structuredContent mostly references catalog objects); counted at two bytes a character.
  const results: ResultCache = new RevisionCache(
    memo,
    'mcp_results',
    ({ result, copied }) => copied + result.content.reduce((n, part) => n + ('text' in part ? 2 * part.text.length : 0), 0),
  );
  const addResources = prepareResources(catalog);
  const addPrompts = preparePrompts(catalog);
  return (exchange) => {
    const server = newServer();
    const method = exchange?.method;
    const all = method === undefined;
    if (all || method === 'tools/list' || method === 'tools/call') {
      const only = method === 'tools/call' ? exchange?.name : undefined;
      const brief = summaryTextFor(exchange);
      for (const tool of tools)
        if (only === undefined || tool.spec.name === only) registerTool(server, tool, catalog, results, store, brief);
    }
    if (all || method.startsWith('resources/') || method === 'completion/complete') addResources(server);
    if (all || method.startsWith('prompts/') || method === 'completion/complete') addPrompts(server);
    return server;
  };
}

function registerTool(
  server: McpServer,
  { spec, input, output }: (typeof PREPARED)[number],
  catalog: () => Catalog,
  results: ResultCache,
  store: ToolStore | null,
  brief: boolean,
): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: input,
      outputSchema: output,
      annotations: { title: spec.title, ...READ_ONLY_ANNOTATIONS },
    },
    (args: unknown) => runTool(spec, catalog, args, results, store, brief),
  );
}

function newServer(): McpServer {
  return new McpServer(SERVER_INFO, {
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
