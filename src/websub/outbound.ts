import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { Agent, buildConnector } from 'undici';
import type { Result } from '../domain/index.js';
import { canonicalHost, forbiddenReason, isLocalHostname } from './address.js';
import type { HubConfig } from './config.js';

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
/** A response, or why there is none (refused address, timeout, network error, body too large). */
export type OutboundResult = Result<OutboundResponse, string>;

export class RefusedAddressError extends Error {
  readonly code = 'EHUBREFUSED';
}

const USER_AGENT = 'Reviewcast-WebSub-Hub/1';

/** undici, loaded on the first call out: about 0.3 s of a server's start, which may never call anyone. */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => (undici ??= import('undici'));

/**
 * The only way the hub talks to subscribers. Rules that hold for every request:
 * - HTTPS only, TLS always verified (the test CA is added to the system roots, never replacing them);
 * - outside the test setting, the peer must be a public unicast address, checked twice: names resolving
 *   only to non-public addresses fail in DNS lookup before any connection, and the address the socket
 *   actually connected to is checked again (IP literals skip lookup, and a rebinding DNS answer cannot
 *   change what the socket reports);
 * - redirects are never followed (undici's request() does not, and no redirect interceptor is installed);
 * - one deadline covers connect, TLS, headers and body; at most `maxResponseBytes` of the body are read.
 */
export class OutboundClient {
  #agent: Promise<Agent> | undefined;
  #closed = false;
  /** One secure context for all connections: building it per connection would re-parse every root CA (~50 ms). */
  private readonly secureContext: SecureContext | undefined;

  constructor(
    private readonly config: Pick<
      HubConfig,
      'allowPrivateCallbacks' | 'caFile' | 'requestTimeoutMs' | 'connectTimeoutMs' | 'maxResponseBytes' | 'connectionsPerOrigin'
    >,
  ) {
    this.secureContext = config.caFile
      ? createSecureContext({ ca: [...rootCertificates, readFileSync(config.caFile, 'utf8')] })
      : undefined;
  }

  private agent(): Promise<Agent> {
    this.#agent ??= loadUndici().then(({ Agent, buildConnector }) => {
      const allowPrivate = this.config.allowPrivateCallbacks;
      const connector = buildConnector({
        ...(this.secureContext ? { secureContext: this.secureContext } : {}),
        rejectUnauthorized: true,
        timeout: this.config.connectTimeoutMs,
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
      });
      return new Agent({
        connections: this.config.connectionsPerOrigin,
        headersTimeout: this.config.requestTimeoutMs,
        bodyTimeout: this.config.requestTimeoutMs,
        keepAliveTimeout: 10_000,
        connect: guardConnector(connector, allowPrivate),
      });
    });
    return this.#agent;
  }

  refuseUrl(url: URL): string | null {
    return refuseUrl(url, this.config.allowPrivateCallbacks);
  }

  /** `body` in parts is sent as they are, one after another, with their total as its length. */
  async send(
    method: 'GET' | 'POST',
    href: string,
    headers: Record<string, string> = {},
    body?: Buffer | readonly Buffer[],
  ): Promise<OutboundResult> {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return { ok: false, error: 'invalid URL' };
    }
    const refused = this.refuseUrl(url);
    if (refused) return { ok: false, error: refused };
    // Closed before its first call out, it has no Agent to refuse the call: it refuses it itself.
    if (this.#closed) return { ok: false, error: 'the client is closed' };
    const signal = AbortSignal.timeout(this.config.requestTimeoutMs);
    try {
      const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.agent()]);
      const parts = body === undefined ? [] : Buffer.isBuffer(body) ? [body] : body;
      const res = await request(url, {
        dispatcher,
        method,
        headers: {
          'user-agent': USER_AGENT,
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(parts.reduce((n, p) => n + p.length, 0)) }),
        },
        body: parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : Readable.from(parts, { objectMode: false }),
        signal,
      });
      return {
        ok: true,
        value: { status: res.statusCode, headers: res.headers, body: await readCapped(res.body, this.config.maxResponseBytes) },
      };
    } catch (err) {
      return { ok: false, error: describe(err, signal) };
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#agent) await (await this.#agent).close();
  }
}

/**
 * Wraps a connector so that, outside the test setting, a socket whose remote address (the address
 * actually connected to) is not public is destroyed before any HTTP byte is written.
 */
export function guardConnector(connector: buildConnector.connector, allowPrivate: boolean): buildConnector.connector {
  return (opts, cb) => {
    connector(opts, (err, socket) => {
      if (err || !socket) return cb(err ?? new Error('no socket'), null);
      const why = allowPrivate ? null : forbiddenReason(socket.remoteAddress ?? '');
      if (why) {
        socket.destroy();
        return cb(new RefusedAddressError(`refused to connect to a ${why} address`), null);
      }
      cb(null, socket);
    });
  };
}

/** Why a callback URL may not be called at all, decided without touching the network (null when it may). */
export function refuseUrl(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:') return 'only https callbacks are called';
  if (url.username || url.password) return 'callback URLs must not contain credentials';
  if (allowPrivate) return null;
  const host = canonicalHost(url.hostname);
  if (isLocalHostname(host)) return 'refused to call localhost';
  if (isIP(host)) {
    const why = forbiddenReason(host);
    if (why) return `refused to call a ${why} address`;
  }
  return null;
}

/** Reads at most `cap` bytes, then drops the rest of the stream (the peer does not get to make us buffer). */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const take = chunk.subarray(0, cap - size);
    chunks.push(take);
    size += take.length;
    if (size >= cap) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks, size);
}

function describe(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out';
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e instanceof RefusedAddressError) return e.message;
  if (e?.cause instanceof RefusedAddressError) return e.cause.message;
  const code = e?.code ?? e?.cause?.code;
  if (code && /TIMEOUT/i.test(code)) return 'timed out';
  return code ? `${code}: ${e.message ?? ''}`.trim() : String(e?.message ?? err);
}

/** dns.lookup that drops non-public answers, and fails when none is left. */
export const publicOnlyLookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err);
    const usable = addresses.filter((a) => forbiddenReason(a.address) === null);
    if (usable.length === 0) {
      return callback(new RefusedAddressError(`refused: ${hostname} resolves only to non-public addresses`));
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  });
}) as unknown as LookupFunction;
