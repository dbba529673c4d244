import { z } from 'zod';
import { type Catalog, FEED_SIZE } from '../catalog/index.js';
import { DATASETS, inlineLocalRefs, PATHS, standalone, TOPICS, type TopicName, topicUrl } from '../domain/index.js';
import { buildOpenApi, CACHE_CONTROL } from '../http/index.js';
import type { HubLimits } from '../websub/index.js';
import { formatCount } from './format.js';
import { type Html, html } from './html.js';
import { layout, rootPath } from './layout.js';
import { fieldRows, fieldTable, type JsonSchema, modelAnchor, typeOf } from './schema-doc.js';

/** One MCP tool as the MCP module lists it; `inputSchema` may be JSON Schema or a Zod schema. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
}

interface Operation {
  summary?: string;
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** The data model tables, in reading order; every other component is linked from these. */
const MODEL_ORDER = [
  'ReviewsDocument',
  'Review',
  'Business',
  'AggregateRating',
  'SearchQuery',
  'SearchResult',
  'SinceResult',
  'Insights',
  'JsonFeed',
  'Error',
];

const toJsonSchema = (s: unknown): JsonSchema =>
  (s instanceof z.ZodType
    ? standalone(s, 'input', { inline: 'all' })
    : inlineLocalRefs((s ?? {}) as Record<string, unknown>)) as JsonSchema;

// Code wraps instead of scrolling, so no block needs to be a focusable scroll region.
const code = (text: string) => html`<pre class="code" data-copy><code>${text}</code></pre>`;

/** Tool descriptions are written for models in Markdown-ish text: `backticks` become code. */
const withCode = (text: string) => text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));

function exampleUrl(c: Catalog, path: string): string {
  if (path === PATHS.search) return `${c.links.base}${path}?min_rating=4&limit=5`;
  return `${c.links.base}${path.replace('{date}', c.aggregateRating.last_review_date ?? '2025-01-01')}`;
}

function operation(c: Catalog, path: string, method: string, op: Operation): Html {
  const params = (op.parameters ?? []).filter((p) => p.in !== 'header');
  const form = op.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  const isGet = method === 'get';
  return html`<article class="endpoint" id="op-${op.operationId ?? path}">
  <h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
  ${op.summary && html`<p>${op.summary}</p>`}
  ${
    params.length > 0 &&
    fieldTable(
      params.map((p) => ({
        path: p.name,
        type: typeOf(p.schema),
        required: p.required ?? false,
        description: `${p.in} parameter${p.description ? `; ${p.description}` : ''}`,
      })),
      `Parameters of ${method.toUpperCase()} ${path}`,
    )
  }
  ${form && fieldTable(fieldRows(form), `Form fields of ${method.toUpperCase()} ${path}`)}
  <ul class="responses" aria-label="Responses">
    ${Object.entries(op.responses).map(([status, r]) => {
      const media = Object.entries(r.content ?? {});
      return html`<li><code>${status}</code> ${r.description}${media.map(([type, m]) => html` — ${typeOf(m.schema)} <span class="muted">(${type})</span>`)}</li>`;
    })}
  </ul>
  ${isGet && html`${code(`curl -s '${exampleUrl(c, path)}'`)}<p class="try"><a href="${exampleUrl(c, path)}">Open in the browser</a></p>`}
</article>`;
}

function restSection(c: Catalog, doc: OpenApiDoc): Html {
  const root = rootPath(c);
  return html`<section id="rest" aria-labelledby="rest-heading">
  <h2 id="rest-heading">REST endpoints</h2>
  <p>Rendered from <a href="${root}${PATHS.openapi}">${PATHS.openapi}</a> (OpenAPI 3.1), which is generated from the same Zod schemas that validate the data. Every <code>GET</code> also answers <code>HEAD</code>.</p>
  ${Object.entries(doc.paths).map(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => m !== 'head')
      .map(([m, op]) => operation(c, path, m, op)),
  )}
</section>`;
}

function mcpSection(c: Catalog, tools: readonly ToolDefinition[]): Html {
  const endpoint = `${c.links.base}${PATHS.mcp}`;
  const name = `${c.business.id}-reviews`;
  const config = JSON.stringify({ mcpServers: { [name]: { type: 'http', url: endpoint } } }, null, 2);
  return html`<section id="mcp" aria-labelledby="mcp-heading">
  <h2 id="mcp-heading">MCP for AI agents</h2>
  <p>A Model Context Protocol server (streamable HTTP) at <code>${endpoint}</code>. It needs no token, key or account. Add it to an MCP client:</p>
  ${code(config)}
  <p>or, with Claude Code:</p>
  ${code(`claude mcp add --transport http ${name} ${endpoint}`)}
  <h3>Tools</h3>
  ${
    tools.length === 0
      ? html`<p>No tools are registered on this server.</p>`
      : tools.map((t) => {
          const rows = fieldRows(toJsonSchema(t.inputSchema));
          return html`<article class="endpoint" id="tool-${t.name}">
      <h4><code>${t.name}</code>${t.title && html` <span class="muted">— ${t.title}</span>`}</h4>
      ${t.description && html`<p>${withCode(t.description)}</p>`}
      ${rows.length > 0 ? fieldTable(rows, `Arguments of ${t.name}`) : html`<p class="muted">No arguments.</p>`}
    </article>`;
        })
  }
</section>`;
}

function websubSection(c: Catalog, hub: HubLimits): Html {
  const l = c.links;
  const days = (s: number) => `${formatCount(s / 86_400)} days`;
  const content: Record<TopicName, string> = {
    feedAtom: `Atom feed of the ${FEED_SIZE} newest reviews`,
    feedJson: `JSON Feed of the ${FEED_SIZE} newest reviews`,
    reviews: 'every published review with the business and aggregate rating',
  };
  const topics = TOPICS.map((name) => [topicUrl(l, name), DATASETS[name].contentType, content[name]] as const);
  const subscribe = `curl -i ${l.hub} \\
  -d hub.mode=subscribe \\
  --data-urlencode hub.topic=${l.feedAtom} \\
  --data-urlencode hub.callback=https://your-app.example/websub/reviews \\
  -d hub.secret=a-long-random-secret \\
  -d hub.lease_seconds=${hub.leaseDefaultSeconds}`;
  const verify = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the exact bytes of the POST body (a Buffer), before any JSON or XML parsing.
export function isFromHub(secret, rawBody, signatureHeader) {
  const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex'));
  const given = Buffer.from(signatureHeader ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}`;
  return html`<section id="websub" aria-labelledby="websub-heading">
  <h2 id="websub-heading">WebSub: get pushed every change</h2>
  <p>Hub: <code>${l.hub}</code>. Each topic answers <code>GET</code> and <code>HEAD</code> with <code>Link: &lt;hub&gt;; rel="hub", &lt;topic&gt;; rel="self"</code>.</p>
  <div class="table-scroll" tabindex="0" role="region" aria-label="WebSub topics"><table class="fields">
    <caption>Topics</caption>
    <thead><tr><th scope="col">Topic URL</th><th scope="col">Content type</th><th scope="col">Content</th></tr></thead>
    <tbody>${topics.map(([u, t, d]) => html`<tr><th scope="row"><code>${u}</code></th><td><code>${t}</code></td><td>${d}</td></tr>`)}</tbody>
  </table></div>
  <h3>Subscribe</h3>
  ${code(subscribe)}
  <ol class="steps">
    <li>The hub answers <code>202 Accepted</code>, then checks your intent: it sends <code>GET</code> to your callback with <code>hub.mode</code>, <code>hub.topic</code>, <code>hub.challenge</code> and <code>hub.lease_seconds</code>. Answer <code>200</code> with exactly the <code>hub.challenge</code> value as the body.</li>
    <li>On every change of the topic the hub <code>POST</code>s the topic's full new content to your callback, with the topic's <code>Content-Type</code> and the same <code>Link</code> header. Answer with any <code>2xx</code>.</li>
    <li>Failed deliveries are retried with backoff; after ${hub.maxConsecutiveFailures} consecutive failures (or a <code>410 Gone</code>) the subscription is removed.</li>
    <li>Leases default to ${days(hub.leaseDefaultSeconds)} (${formatCount(hub.leaseMinSeconds)} seconds to ${days(hub.leaseMaxSeconds)}); subscribe again before yours ends. Unsubscribe the same way with <code>hub.mode=unsubscribe</code>.</li>
    <li>Callbacks must be <code>https://</code> URLs on public addresses.</li>
  </ol>
  <h3>Verify the signature</h3>
  <p>With a <code>hub.secret</code>, every delivery carries <code>X-Hub-Signature: sha256=&lt;hex&gt;</code>: the HMAC-SHA256 of the exact body bytes, keyed by your secret. Reject deliveries whose signature does not match:</p>
  ${code(verify)}
</section>`;
}

function cachingSection(c: Catalog): Html {
  const rep = c.representations.reviews;
  return html`<section id="caching" aria-labelledby="caching-heading">
  <h2 id="caching-heading">Conditional GET and caching</h2>
  <p>Datasets, feeds, search results and these pages are rendered once per data revision and carry a strong <code>ETag</code> (a hash of the exact bytes, identical on every replica), <code>Last-Modified</code> and <code>Cache-Control: ${CACHE_CONTROL}</code>. Send the validator back and an unchanged resource costs a <code>304 Not Modified</code> with no body:</p>
  ${code(`curl -si ${c.links.reviewsJson} -H 'If-None-Match: ${rep.etag}'\n# HTTP/1.1 304 Not Modified`)}
  <p><code>If-None-Match</code> takes a list or <code>*</code>; <code>If-Modified-Since</code> works too. Bodies of 1 KB or more come brotli- or gzip-compressed when <code>Accept-Encoding</code> allows (the ETag then gets a <code>-br</code> or <code>-gz</code> suffix, and either form validates).</p>
</section>`;
}

function limitsSection(doc: OpenApiDoc, hub: HubLimits): Html {
  const q = doc.components.schemas.SearchQuery?.properties ?? {};
  return html`<section id="limits" aria-labelledby="limits-heading">
  <h2 id="limits-heading">Limits</h2>
  <ul>
    <li>Search returns at most ${q.limit?.maximum} reviews per request (default ${String(q.limit?.default)}); <code>query</code> is at most ${q.query?.maxLength} characters. <code>/reviews.json</code> always has every review.</li>
    <li>Feeds carry the ${FEED_SIZE} newest reviews.</li>
    <li>The hub accepts ${hub.rateLimitPerClient.perMinute} subscription requests a minute per client address (bursts of ${hub.rateLimitPerClient.burst}) and ${hub.rateLimitPerCallbackHost.perMinute} a minute per callback host; beyond that it answers <code>429</code> with <code>Retry-After</code>.</li>
    <li>Deliveries time out after ${hub.requestTimeoutMs / 1000} seconds.</li>
    <li>No endpoint needs or honours credentials; nothing public writes.</li>
  </ul>
</section>`;
}

function modelSection(doc: OpenApiDoc): Html {
  const schemas = doc.components.schemas;
  const names = [...MODEL_ORDER.filter((n) => schemas[n]), ...Object.keys(schemas).filter((n) => !MODEL_ORDER.includes(n))];
  return html`<section id="model" aria-labelledby="model-heading">
  <h2 id="model-heading">Data model</h2>
  <p>Generated from the Zod schemas that validate every response. JSON field names are snake_case.</p>
  ${names.map(
    (n) => html`<section class="model" id="${modelAnchor(n)}" aria-labelledby="${modelAnchor(n)}-h">
    <h3 id="${modelAnchor(n)}-h"><code>${n}</code></h3>
    ${schemas[n].description && html`<p>${schemas[n].description}</p>`}
    ${fieldTable(fieldRows(schemas[n]), `Fields of ${n}`)}
  </section>`,
  )}
</section>`;
}

/** `/developers`: every surface, generated from the live OpenAPI document, tool list and schemas. */
export function renderDevelopers(c: Catalog, tools: readonly ToolDefinition[], hub: HubLimits): Html {
  const doc = buildOpenApi(c.links.base) as OpenApiDoc;
  const root = rootPath(c);
  const toc = [
    ['rest', 'REST endpoints'],
    ['mcp', 'MCP'],
    ['websub', 'WebSub'],
    ['caching', 'Conditional GET'],
    ['limits', 'Limits'],
    ['model', 'Data model'],
  ];
  const body = html`<div class="wrap developers">
  <header class="page-intro">
    <p class="eyebrow">For developers</p>
    <h1>Use ${c.business.name}'s reviews in your software</h1>
    <p class="lede">Everything here is public and read-only: no key, token or account. Base URL <code>${c.links.base}</code>. Agents can start from <a href="${root}${PATHS.llmsTxt}">llms.txt</a>.</p>
  </header>
  <div class="docs-layout">
    <nav class="toc" aria-label="On this page"><ul>${toc.map(([id, label]) => html`<li><a href="#${id}">${label}</a></li>`)}</ul></nav>
    <div class="docs">
      ${restSection(c, doc)}
      ${mcpSection(c, tools)}
      ${websubSection(c, hub)}
      ${cachingSection(c)}
      ${limitsSection(doc, hub)}
      ${modelSection(doc)}
    </div>
  </div>
</div>`;
  return layout(c, {
    title: `Developers — ${c.business.name} reviews API, MCP and WebSub`,
    description: `REST, JSON Feed, Atom, MCP and WebSub access to the verified reviews of ${c.business.name}. No key needed.`,
    canonical: `${c.links.base}${PATHS.developers}`,
    ogType: 'website',
    script: true,
    body,
  });
}
