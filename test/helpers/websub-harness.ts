import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { Catalog } from '../../src/catalog/index.js';
import { Representation } from '../../src/catalog/index.js';
import { links } from '../../src/domain/index.js';
import { Store } from '../../src/store/index.js';
import { type HubConfigInput, HubConfigSchema, HubWorker, registerHub } from '../../src/websub/index.js';
import { tempDir } from './tmp.js';

/** A throw-away CA and a server certificate for 127.0.0.1/localhost signed by it (EC P-256: fast handshakes). */
export interface TestPki {
  caFile: string;
  key: Buffer;
  cert: Buffer;
}

export function makePki(dir = tempDir('reviewcast-pki-')): TestPki {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key');
  run('req', '-x509', '-new', '-key', 'ca.key', '-sha256', '-days', '2', '-subj', '/CN=Reviewcast Test CA', '-out', 'ca.pem');
  run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'server.key');
  run('req', '-new', '-key', 'server.key', '-subj', '/CN=127.0.0.1', '-out', 'server.csr');
  writeFileSync(
    join(dir, 'ext.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
  );
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    'ext.cnf',
    '-out',
    'server.pem',
  );
  return { caFile: join(dir, 'ca.pem'), key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) };
}

export interface Received {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  at: number;
}

export type Handler = (r: Received, res: ServerResponse) => void;

/** Echoes the challenge on GET, answers 204 to notifications: a well-behaved subscriber. */
export const goodSubscriber: Handler = (r, res) => {
  if (r.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(r.query.get('hub.challenge') ?? '');
  } else res.writeHead(204).end();
};

/** A real HTTPS subscriber on 127.0.0.1 that records every request; the handler can be swapped per test. */
export class Subscriber {
  readonly received: Received[] = [];
  handler: Handler;
  private constructor(
    private readonly server: Server,
    readonly origin: string,
    handler: Handler,
  ) {
    this.handler = handler;
  }

  static async start(pki: TestPki, handler: Handler = goodSubscriber): Promise<Subscriber> {
    let sub: Subscriber | undefined;
    const server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = {
          method: req.method ?? '',
          url: req.url ?? '',
          query: new URL(req.url ?? '/', 'https://x').searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        sub!.received.push(r);
        sub!.handler(r, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    sub = new Subscriber(server, `https://127.0.0.1:${port}`, handler);
    return sub;
  }

  url(path = '/cb'): string {
    return `${this.origin}${path}`;
  }
  gets(path?: string) {
    return this.received.filter((r) => r.method === 'GET' && (!path || r.url.startsWith(path)));
  }
  posts(path?: string) {
    return this.received.filter((r) => r.method === 'POST' && (!path || r.url.startsWith(path)));
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Stands in for a catalog revision: the hub reads only the revision number, the links and the three
 * topic representations, so tests need not build reviews and insights.
 */
/** `inParts`: the datasets' bodies held in that many parts, as a catalog updated by views of the previous one holds them. */
export function fakeCatalog(revision: number, base: string, opts: { padBytes?: number; inParts?: number } = {}): Catalog {
  const marker = `${revision}${'x'.repeat(opts.padBytes ?? 0)}`;
  const at = new Date().toUTCString();
  const cut = (b: Buffer, n: number) =>
    Array.from({ length: n }, (_, i) => b.subarray(Math.floor((i * b.length) / n), Math.floor(((i + 1) * b.length) / n)));
  const rep = (type: string, body: string) =>
    new Representation(type, opts.inParts ? cut(Buffer.from(body), opts.inParts) : Buffer.from(body), at);
  return {
    revision,
    links: links(base),
    representations: {
      feedAtom: rep(
        'application/atom+xml; charset=utf-8',
        `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><id>${marker}</id></feed>`,
      ),
      feedJson: rep(
        'application/feed+json; charset=utf-8',
        JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: marker, items: [] }),
      ),
      reviews: rep('application/json; charset=utf-8', JSON.stringify({ revision, marker, reviews: [] })),
      insights: rep('application/json; charset=utf-8', '{}'),
    },
  } as unknown as Catalog;
}

/** Every log line of the hub and its app, to check what is (not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.lines.push(chunk.toString());
    cb();
  }
  get text() {
    return this.lines.join('');
  }
}

export interface TestHub {
  app: FastifyInstance;
  hubUrl: string;
  base: string;
  store: Store;
  worker: HubWorker;
  logs: LogCapture;
  catalog(): Catalog;
  /** Swaps in a new revision (with different bytes on every topic) and announces it, like the composition root does. */
  publish(opts?: Parameters<typeof fakeCatalog>[2]): Promise<Catalog>;
  post(
    fields: Record<string, string> | string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; text: string; headers: Headers }>;
  subscribe(topic: string, callback: string, extra?: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }>;
  close(): Promise<void>;
}

export const FAST: HubConfigInput = {
  allowPrivateCallbacks: true,
  pollIntervalMs: 50,
  retryBaseMs: 50,
  retryFactor: 2,
  requestTimeoutMs: 2_000,
  rateLimitPerClient: { perMinute: 6000, burst: 1000 },
  rateLimitPerCallbackHost: { perMinute: 6000, burst: 1000 },
  metricsLogIntervalMs: 0,
};

export async function startHub(pki: TestPki, config: HubConfigInput = {}, databaseUrl?: string): Promise<TestHub> {
  const logs = new LogCapture();
  const log = pino({ level: 'debug' }, logs);
  const store = await Store.open(databaseUrl ?? join(tempDir(), 'hub.db'));
  const app = Fastify({ loggerInstance: log as FastifyBaseLogger }) as unknown as FastifyInstance;
  let current: Catalog = fakeCatalog(1, 'http://placeholder');
  const cfg = HubConfigSchema.parse({ caFile: pki.caFile, ...FAST, ...config });
  const deps = { store, catalog: () => current, config: cfg, log };
  const worker = new HubWorker(deps);
  registerHub(app, { ...deps, worker });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  current = fakeCatalog(1, base);
  await worker.onRevision(current);
  await worker.start();
  const hubUrl = `${base}/api/websub/hub`;
  const post: TestHub['post'] = async (fields, headers = {}) => {
    const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
    const res = await fetch(hubUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };
  return {
    app,
    hubUrl,
    base,
    store,
    worker,
    logs,
    catalog: () => current,
    async publish(opts?: Parameters<typeof fakeCatalog>[2]) {
      current = fakeCatalog(current.revision + 1, base, opts);
      await worker.onRevision(current);
      return current;
    },
    post,
    subscribe: (topic, callback, extra = {}) => post({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': callback, ...extra }),
    async close() {
      await app.close();
      await worker.stop();
      await store.close();
    },
  };
}

export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** `what` may be a function, to say in the error what was last seen. */
export async function waitFor<T>(fn: () => T | Promise<T>, what: string | (() => string), timeoutMs = 10_000): Promise<Truthy<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const hmac = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
