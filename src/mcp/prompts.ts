import { completable, type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Catalog } from '../catalog/index.js';
import { ENTITY_KINDS, type EntityKind, KIND, mentioning } from './entity-kinds.js';
import { completeNames, findAspect, findEntity, UnknownName } from './lookup.js';

/** A prompt argument naming something unknown is a request error (prompts have no isError result); the message lists the valid names. */
function orInvalidParams<T>(find: () => T): T {
  try {
    return find();
  } catch (err) {
    if (err instanceof UnknownName) throw new ProtocolError(ProtocolErrorCode.InvalidParams, err.message);
    throw err;
  }
}

const userMessage = (text: string, uri: string, data: unknown) => ({
  messages: [
    { role: 'user' as const, content: { type: 'text' as const, text } },
    {
      role: 'user' as const,
      content: { type: 'resource' as const, resource: { uri, mimeType: 'application/json', text: JSON.stringify(data) } },
    },
  ],
});

/**
 * Ready-made questions about one aspect, technician or service. Their arguments complete (the
 * protocol completes prompt and resource-template arguments, not tool arguments), and each prompt
 * carries the data it is about, so a client can answer without a tool call.
 *
 * The argument schemas are built once (a Zod object costs tens of microseconds to build, and a
 * server is built per request); the returned function registers them on one server.
 */
export function preparePrompts(catalog: () => Catalog): (server: McpServer) => void {
  const aspectArgs = z.object({
    aspect: completable(z.string().min(1).max(120).describe('aspect id or label'), (typed) =>
      completeNames(catalog().insights.aspects, typed),
    ),
  });
  const entityArgs = (kind: EntityKind) =>
    z.object({
      [kind]: completable(z.string().min(1).max(120).describe(`${kind} id, name or alias`), (typed) =>
        completeNames(KIND[kind].profiles(catalog()), typed),
      ),
    });
  const technicianArgs = entityArgs('technician');
  const serviceArgs = entityArgs('service');
  return (server) => registerPrompts(server, catalog, aspectArgs, { technician: technicianArgs, service: serviceArgs });
}

function registerPrompts(
  server: McpServer,
  catalog: () => Catalog,
  aspectArgs: z.ZodObject<{ aspect: z.ZodString }>,
  entityArgs: Record<EntityKind, z.ZodObject<Record<string, z.ZodString>>>,
): void {
  server.registerPrompt(
    'aspect_report',
    {
      title: 'What customers say about an aspect',
      description: 'Summarise the reviews about one aspect (e.g. punctuality), with its sentiment numbers and quotes attached.',
      argsSchema: aspectArgs,
    },
    ({ aspect }) => {
      const c = catalog();
      const a = orInvalidParams(() => findAspect(c, aspect));
      return userMessage(
        `Summarise what customers of ${c.business.name} say about ${a.label.toLowerCase()}: the overall sentiment, what drives praise and complaints, and two short quotes. Use the attached data; search_reviews finds more reviews.`,
        `reviewcast://aspects/${a.id}`,
        a,
      );
    },
  );
  for (const kind of ENTITY_KINDS) {
    server.registerPrompt(
      `${kind}_report`,
      {
        title: KIND[kind].promptTitle,
        description: `Summarise the reviews that mention one ${kind}, with its statistics and newest reviews attached.`,
        argsSchema: entityArgs[kind],
      },
      (args: Record<string, string>) => {
        const c = catalog();
        const { profile, stats } = orInvalidParams(() => findEntity(c, kind, args[kind]));
        const recent = c.search({ ...mentioning(kind, profile.id), limit: 10 }).reviews;
        return userMessage(
          `Summarise how customers of ${c.business.name} rate the ${kind} ${profile.name}: rating, what they praise, any recurring complaint. Use the attached statistics and newest reviews; search_reviews finds more.`,
          `reviewcast://${kind}s/${profile.id}`,
          { [kind]: profile, stats, recent_reviews: recent },
        );
      },
    );
  }
}
