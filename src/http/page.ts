import type { FastifyReply, FastifyRequest } from 'fastify';
import { PER_URL, Representation } from '../catalog/index.js';
import { sendRepresentation } from './conditional.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A page's body with the URL of the next page, if any (RFC 8288 `Link: <…>; rel="next"`). */
export class Page extends Representation {
  /** The headers the page adds before its representation's (one object per page, for the fast path). */
  readonly before: Readonly<Record<string, string>>;

  constructor(
    body: string | Buffer | readonly Buffer[],
    lastModified: string,
    readonly next: string | null,
    /** A digest that covers the body already (a spliced document's). */
    digest?: Buffer,
  ) {
    super(JSON_TYPE, typeof body === 'string' ? Buffer.from(body) : body, lastModified, { policy: PER_URL, digest });
    this.before = next ? { link: `<${next}>; rel="next"` } : NO_HEADERS;
  }
}

const NO_HEADERS = {};

/** Sends a page with its `Link: rel="next"` header, conditionally like every representation. */
export function sendPage(req: FastifyRequest, reply: FastifyReply, rep: Representation) {
  if (rep instanceof Page) reply.headers(rep.before);
  return sendRepresentation(req, reply, rep);
}
