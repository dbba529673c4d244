import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, test } from 'node:test';
import { buildConnector } from 'undici';
import {
  canonicalHost,
  forbiddenReason,
  guardConnector,
  HubConfigSchema,
  isLocalHostname,
  OutboundClient,
  publicOnlyLookup,
  refuseUrl,
} from '../../src/websub/index.js';
import { makePki, Subscriber } from '../helpers/index.js';

describe('address classification', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['10.20.30.40', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.0.1', /private/],
    ['100.64.0.1', /CGNAT/],
    ['100.127.255.255', /CGNAT/],
    ['169.254.169.254', /link-local/],
    ['224.0.0.251', /multicast/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /reserved/],
    ['0.0.0.0', /unspecified/],
    ['192.0.2.1', /documentation/],
    ['198.18.0.1', /benchmarking/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['::ffff:127.0.0.1', /IPv4-mapped/],
    ['::ffff:10.0.0.1', /IPv4-mapped/],
    ['::ffff:8.8.8.8', /IPv4-mapped/],
    ['::ffff:7f00:1', /IPv4-mapped/],
    ['::127.0.0.1', /IPv4-compatible/],
    ['64:ff9b::a00:1', /NAT64/],
    ['2002:7f00:1::', /6to4/],
    ['2001:0:4136:e378::1', /Teredo/],
    ['fc00::1', /ULA/],
    ['fd12:3456:789a::1', /ULA/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['ff02::1', /multicast/],
    ['2001:db8::1', /documentation/],
    ['[::1]', /loopback/],
    ['example.com', /not an IP/],
  ];
  for (const [a, why] of refused) test(`refuses ${a}`, () => assert.match(forbiddenReason(a) ?? 'allowed', why));
  for (const a of [
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
  ])
    test(`allows ${a}`, () => assert.equal(forbiddenReason(a), null));
  test('localhost names', () => {
    for (const h of ['localhost', 'LOCALHOST', 'a.localhost', 'localhost.']) assert.ok(isLocalHostname(h), h);
    for (const h of ['localhost.example.com', 'notlocalhost']) assert.ok(!isLocalHostname(h), h);
    for (const h of ['localhost..', 'LOCALHOST.', 'a.LocalHost..']) assert.ok(isLocalHostname(h), h);
  });
  test('host names have one canonical spelling: case, trailing dots and IDNA folded; IP literals unbracketed', () => {
    const same: [string, string][] = [
      ['Example.COM.', 'example.com'],
      ['example.com..', 'example.com'],
      ['bücher.example', 'xn--bcher-kva.example'],
      ['XN--BCHER-KVA.example.', 'xn--bcher-kva.example'],
      ['[::1]', '::1'],
      ['[::FFFF:7F00:1]', '::ffff:7f00:1'],
      ['127.0.0.1', '127.0.0.1'],
    ];
    for (const [h, want] of same) assert.equal(canonicalHost(h), want, h);
    assert.match(refuseUrl(new URL('https://localhost../'), false) ?? '', /localhost/);
    assert.match(refuseUrl(new URL('https://127.0.0.1./'), false) ?? '', /loopback/);
  });
});

describe('outbound client without the test setting', () => {
  test('refuses non-https, credentials, loopback, private and mapped literals before connecting', async () => {
    const client = new OutboundClient(HubConfigSchema.parse({}));
    try {
      for (const url of [
        'http://8.8.8.8/',
        'https://u:p@8.8.8.8/',
        'https://127.0.0.1:1/',
        'https://localhost/',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://[fd00::1]/',
        'https://100.64.0.1/',
        'https://0x7f.1/',
      ]) {
        const res = await client.send('GET', url);
        assert.equal(res.ok, false, url);
        assert.match(res.ok ? '' : res.error, /https|credentials|refused/, url);
      }
    } finally {
      await client.close();
    }
  });

  test('a name resolving only to non-public addresses fails in lookup', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      (publicOnlyLookup as any)('localhost', { all: true }, (e: NodeJS.ErrnoException | null) => resolve(e)),
    );
    assert.equal(err?.code, 'EHUBREFUSED');
  });

  test("the machine's own name is refused when it resolves to a private address", async (t) => {
    const name = hostname();
    const addrs = await lookup(name, { all: true }).catch(() => []);
    if (addrs.length === 0 || addrs.some((a) => forbiddenReason(a.address) === null))
      return t.skip('host name does not resolve to private addresses only');
    const client = new OutboundClient(HubConfigSchema.parse({}));
    try {
      const res = await client.send('GET', `https://${name}:1/`);
      assert.equal(res.ok, false);
      assert.match(res.ok ? '' : res.error, /refused|non-public/);
    } finally {
      await client.close();
    }
  });

  test('the connected socket is checked: a loopback peer is refused even when no earlier check stopped it', async () => {
    // The lookup filter and the URL check are both bypassed here (IP literal straight to the connector),
    // as if a resolver had handed out an internal address: the guard on the socket still refuses.
    const pki = makePki();
    const sub = await Subscriber.start(pki);
    try {
      const port = new URL(sub.origin).port;
      const connector = buildConnector({ ca: readFileSync(pki.caFile), rejectUnauthorized: true });
      const connect = (allowPrivate: boolean) =>
        new Promise<{ err: Error | null; remote?: string }>((resolve) =>
          guardConnector(connector, allowPrivate)(
            { hostname: '127.0.0.1', host: `127.0.0.1:${port}`, protocol: 'https:', port, servername: '' } as never,
            (err, socket) => {
              resolve({ err, remote: socket?.remoteAddress });
              socket?.destroy();
            },
          ),
        );
      const refused = await connect(false);
      assert.match(refused.err?.message ?? '', /refused to connect to a loopback address/);
      const allowed = await connect(true);
      assert.equal(allowed.err, null);
      assert.equal(allowed.remote, '127.0.0.1');
      assert.equal(sub.received.length, 0, 'no HTTP request was made');
    } finally {
      await sub.close();
    }
  });

  test('a client closed before its first call refuses every later one without connecting', async () => {
    const client = new OutboundClient(HubConfigSchema.parse({ allowPrivateCallbacks: true }));
    await client.close();
    const r = await client.send('GET', 'https://127.0.0.1:9/');
    assert.deepEqual(r, { ok: false, error: 'the client is closed' });
  });

  test('refuseUrl allows loopback in the test setting only', () => {
    assert.match(refuseUrl(new URL('https://127.0.0.1/'), false) ?? '', /loopback/);
    assert.equal(refuseUrl(new URL('https://127.0.0.1/'), true), null);
    assert.match(refuseUrl(new URL('http://127.0.0.1/'), true) ?? '', /https/);
  });
});
