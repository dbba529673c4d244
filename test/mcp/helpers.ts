import { join } from 'node:path';
import { after, before } from 'node:test';
import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { RevisionScheduler, seedDemo } from '../../src/app/index.js';
import { MemoBudget } from '../../src/catalog/index.js';
import { buildApp } from '../../src/http/index.js';
import { type McpConfig, registerMcp, type SessionStore } from '../../src/mcp/index.js';
import { Store } from '../../src/store/index.js';
import { tempDir } from '../helpers/index.js';

export interface McpTestServer {
  url: string;
  mcpUrl: string;
  catalog: RevisionScheduler;
  app: FastifyInstance;
  close(): Promise<void>;
}

// Tests open many sessions from 127.0.0.1 in a moment; the rate-limit tests set their own budget.
export const DEFAULT_MCP_CONFIG: McpConfig = {
  mcpSessionTtlMs: 30 * 60_000,
  mcpMaxSessions: 10_000,
  mcpSessionsPerMinute: 6_000,
  mcpAllowedOrigins: null,
};

/**
 * The real HTTP app (buildApp, the demo business in a fresh SQLite file, the real catalog) with the MCP
 * endpoint mounted as the composition root mounts it, listening on 127.0.0.1:0. Built here rather than
 * through startServer so a test can choose the session limits.
 */
/** `sessions`: a session store of the test's own (e.g. with a clock it moves). */
export async function startMcpServer(config: Partial<McpConfig> = {}, reviews = 300, sessions?: SessionStore): Promise<McpTestServer> {
  const log = pino({ level: 'silent' });
  const databaseUrl = join(tempDir(), 'reviewcast.db');
  const store = await Store.open(databaseUrl);
  await seedDemo(store, reviews);
  let base = 'http://127.0.0.1';
  const catalog = new RevisionScheduler(store, { publicBaseUrl: () => base, databaseUrl, pollMs: 60_000, log });
  const memo = new MemoBudget(64 << 20);
  const app = await buildApp({
    catalog: () => catalog.get(),
    logger: log,
    ready: () => store.ping(),
    memo,
    plugins: [
      (a) =>
        registerMcp(a, {
          catalog: () => catalog.get(),
          changes: (after, upTo, limit) => store.reviewChanges(after, upTo, limit),
          config: { ...DEFAULT_MCP_CONFIG, ...config },
          log,
          rateLimits: store,
          memo,
          ...(sessions && { sessions }),
        }),
    ],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  base = url;
  await catalog.refresh();
  return {
    url,
    mcpUrl: `${url}/mcp`,
    catalog,
    app,
    async close() {
      await catalog.stop();
      await app.close();
      await store.close();
    },
  };
}

export type Era = 'session' | 'stateless' | 'auto';

/**
 * The official SDK client, connected: `session` is the plain 2025 initialize handshake (the client's
 * default), `stateless` pins 2026-07-28, `auto` lets the client probe with server/discover.
 */
export async function connectClient(mcpUrl: string, era: Era): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
  const mode = era === 'session' ? 'legacy' : era === 'stateless' ? { pin: '2026-07-28' } : 'auto';
  const client = new Client({ name: 'reviewcast-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return { client, transport };
}

/** A raw JSON-RPC POST (for what the SDK client never sends: bad headers, bad bodies). */
export async function rawPost(mcpUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * A server and an official SDK client of one era for a describe block (started before its tests, closed
 * after), with the tool list and an Ajv that checks results against the tools' output schemas.
 */
export function mcpClientSuite(era: 'session' | 'stateless') {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const suite = { ajv } as { ajv: typeof ajv; server: McpTestServer; client: Client; tools: Tool[] };
  before(async () => {
    suite.server = await startMcpServer();
    ({ client: suite.client } = await connectClient(suite.server.mcpUrl, era));
    suite.tools = (await suite.client.listTools()).tools;
  });
  after(async () => {
    await suite.client?.close();
    await suite.server?.close();
  });
  return suite;
}
