import { type McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/index.js';
import { ENTITY_KINDS, type EntityKind, KIND } from './entity-kinds.js';
import { completeNames, findAspect, findEntity, UnknownName } from './lookup.js';

const JSON_MIME = 'application/json';

/** Data changes only with a new revision, which clients cannot be told about here, so hints stay short. */
const CACHE = { ttlMs: 60_000, cacheScope: 'public' } as const;

export const RESOURCE_URIS = {
  business: 'reviewcast://business',
  insights: 'reviewcast://insights',
  review: 'reviewcast://reviews/{id}',
  aspect: 'reviewcast://aspects/{aspect}',
  technician: 'reviewcast://technicians/{technician}',
  service: 'reviewcast://services/{service}',
} as const;

const json = (uri: URL | string, value: unknown) => ({
  contents: [{ uri: String(uri), mimeType: JSON_MIME, text: JSON.stringify(value) }],
});

/** A template variable's value, or "not found" for the URI (the SDK answers the spec's resource-not-found error). */
function resolveOr<T>(uri: URL, find: () => T): T {
  try {
    return find();
  } catch (err) {
    if (err instanceof UnknownName) throw new ResourceNotFoundError(uri.href, err.message);
    throw err;
  }
}

/** A template variable as given; a malformed %-escape is kept as typed (it then matches nothing: not found). */
function variable(v: string | string[] | undefined): string {
  const raw = Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The business, the insights document and one resource per review, aspect, technician and service.
 * The aspect, technician and service templates carry completions, which is how MCP offers
 * argument completion (completion/complete refers to prompts and resource templates, not tools).
 */
export function prepareResources(catalog: () => Catalog): (server: McpServer) => void {
  // Templates hold only the parsed URI pattern and callbacks, so one set serves every per-request server.
  const reviewTemplate = new ResourceTemplate(RESOURCE_URIS.review, {
    list: undefined,
    complete: {
      id: (typed) =>
        catalog()
          .reviews.filter((r) => r.id.startsWith(typed.toUpperCase()))
          .slice(0, 100)
          .map((r) => r.id),
    },
  });
  const aspectTemplate = new ResourceTemplate(RESOURCE_URIS.aspect, {
    list: () => ({
      resources: catalog().insights.aspects.map((a) => ({
        uri: `reviewcast://aspects/${a.id}`,
        name: a.id,
        title: a.label,
        mimeType: JSON_MIME,
      })),
    }),
    complete: { aspect: (typed) => completeNames(catalog().insights.aspects, typed) },
  });
  const entityTemplate = (kind: EntityKind) =>
    new ResourceTemplate(RESOURCE_URIS[kind], {
      list: () => ({
        resources: KIND[kind]
          .profiles(catalog())
          .map((p) => ({ uri: `reviewcast://${kind}s/${p.id}`, name: p.id, title: p.name, mimeType: JSON_MIME })),
      }),
      complete: { [kind]: (typed) => completeNames(KIND[kind].profiles(catalog()), typed) },
    });
  const templates = {
    review: reviewTemplate,
    aspect: aspectTemplate,
    technician: entityTemplate('technician'),
    service: entityTemplate('service'),
  };
  return (server) => registerResources(server, catalog, templates);
}

function registerResources(
  server: McpServer,
  catalog: () => Catalog,
  templates: Record<'review' | 'aspect' | EntityKind, ResourceTemplate>,
): void {
  server.registerResource(
    'business',
    RESOURCE_URIS.business,
    { title: 'Business profile', description: 'The business profile and its aggregate rating.', mimeType: JSON_MIME, cacheHint: CACHE },
    (uri) => {
      const c = catalog();
      return json(uri, { business: c.business, aggregate_rating: c.aggregateRating });
    },
  );
  server.registerResource(
    'insights',
    RESOURCE_URIS.insights,
    {
      title: 'Insights',
      description: 'The whole insights document (/insights.json): aspects, entities, topics, trend, FAQ, summary and per-review analyses.',
      mimeType: JSON_MIME,
      cacheHint: CACHE,
    },
    // Served from the bytes rendered once per revision; re-serialising a document this size per read would dominate.
    (uri) => ({ contents: [{ uri: uri.href, mimeType: JSON_MIME, text: catalog().representations.insights.text() }] }),
  );
  server.registerResource(
    'review',
    templates.review,
    { title: 'Review', description: 'One published review by id.', mimeType: JSON_MIME, cacheHint: CACHE },
    (uri, vars) => {
      const review = catalog().review(variable(vars.id).toUpperCase());
      if (!review) throw new ResourceNotFoundError(uri.href, `No published review has id "${variable(vars.id)}".`);
      return json(uri, review);
    },
  );
  server.registerResource(
    'aspect',
    templates.aspect,
    { title: 'Aspect sentiment', description: 'Sentiment about one aspect (id or label).', mimeType: JSON_MIME, cacheHint: CACHE },
    (uri, vars) =>
      json(
        uri,
        resolveOr(uri, () => findAspect(catalog(), variable(vars.aspect))),
      ),
  );
  for (const kind of ENTITY_KINDS) {
    server.registerResource(
      kind,
      templates[kind],
      {
        title: KIND[kind].resourceTitle,
        description: `One ${kind} (id, name or alias) with review statistics.`,
        mimeType: JSON_MIME,
        cacheHint: CACHE,
      },
      (uri, vars) => {
        const { profile, stats } = resolveOr(uri, () => findEntity(catalog(), kind, variable(vars[kind])));
        return json(uri, { [kind]: profile, stats });
      },
    );
  }
}
