import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { Store } from '../../src/store/index.js';
import { CLI, client, makePki, startTestServer, tempDir, waitFor } from '../helpers/index.js';
import { FakeGoogle, FakeTrustpilot } from './fakes.js';
import { sourceRows } from './setup.js';

/** The operator's path end to end: CLI commands, then the worker's schedule, /metrics and /readyz. */
describe('review sources: CLI, scheduled sync, metrics and readiness', () => {
  const pki = makePki();
  const tp = new FakeTrustpilot(pki);
  const google = new FakeGoogle(pki);
  const dir = tempDir('reviewcast-sources-');
  const db = join(dir, 'reviewcast.db');
  const credFile = join(dir, 'google.json');
  const outputs: string[] = [];
  let server: RunningServer;
  const env = () => ({
    ...process.env,
    DATABASE_URL: db,
    REVIEWCAST_SYNC_ALLOW_PRIVATE: '1',
    REVIEWCAST_SYNC_CA_FILE: pki.caFile,
    TRUSTPILOT_API_KEY: tp.apiKey,
    LOG_LEVEL: 'info',
    REVIEWCAST_SYNC_INTERVAL: '1',
  });
  // Asynchronous: the fakes answer from this very process.
  const cli = (...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { env: env() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => {
        outputs.push(stdout, stderr);
        resolve({ status, stdout, stderr });
      });
    });
  const secrets = () => [tp.apiKey, google.clientSecret, google.refreshToken, ...google.tokensIssued];

  before(async () => {
    await tp.start();
    await google.start();
    tp.seed(30);
    google.seed(12);
    writeFileSync(credFile, JSON.stringify({ client_secret: google.clientSecret, refresh_token: google.refreshToken }), { mode: 0o600 });
  });
  after(async () => {
    await server?.close();
    delete process.env.TRUSTPILOT_API_KEY;
    await tp.stop();
    await google.stop();
  });

  test('sources add stores settings and where the secrets are; sources list shows no secret', async () => {
    const a = await cli('sources', 'add', 'trustpilot', '--business-unit', tp.businessUnit, '--api-base', tp.apiBase);
    assert.equal(a.status, 0, a.stderr);
    assert.match(a.stdout, /source trustpilot added; credentials from \$TRUSTPILOT_API_KEY/);
    const g = await cli(
      'sources',
      'add',
      'google',
      '--account',
      google.account,
      '--location',
      google.location,
      '--client-id',
      google.clientId,
      '--api-base',
      google.apiBase,
      '--token-url',
      google.tokenUrl,
      '--credentials-file',
      credFile,
    );
    assert.equal(g.status, 0, g.stderr);
    const bad = await cli('sources', 'add', 'trustpilot', '--business-unit', 'x', '--api-base', 'http://plain.example');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--api-base/);
    const list = await cli('sources', 'list');
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /^google {2}accounts\/1234567890\/locations\/9876543210/m);
    assert.match(list.stdout, new RegExp(`credentials: file ${credFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(values never shown\\)`));
    assert.match(list.stdout, /credentials: \$TRUSTPILOT_API_KEY \(values never shown\)/);
    assert.match(list.stdout, /status: never synced/);
  });

  test('reviewcast sync runs every source now and reports what it wrote', async () => {
    const r = await cli('sync');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^google: full reconciliation, 1 page\(s\), 12 review\(s\) read: 12 added, 0 updated, 0 unpublished — revision \d+$/m,
    );
    assert.match(r.stdout, /^trustpilot: full reconciliation, 1 page\(s\), 30 review\(s\) read: 30 added/m);
    const again = await cli('sync', 'trustpilot');
    assert.equal(again.status, 0);
    assert.match(again.stdout, /^trustpilot: incremental, .* 0 added, 0 updated, 0 unpublished — no change$/m);
  });

  test('sources auth google: the consent URL, a rejected code, then a good one stores the refresh token the next sync uses', async () => {
    const consent = await cli('sources', 'auth', 'google');
    assert.equal(consent.status, 0, consent.stderr);
    assert.match(consent.stdout, /--code <code>/);
    assert.match(consent.stdout, new RegExp(`client_id=${google.clientId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const bad = await cli('sources', 'auth', 'google', '--code', 'bad-code');
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /google/);
    const before = JSON.parse(readFileSync(credFile, 'utf8')).refresh_token;
    assert.equal(before, google.refreshToken, 'a rejected code leaves the credentials file alone');
    const good = await cli('sources', 'auth', 'google', '--code', 'good-code');
    assert.equal(good.status, 0, good.stderr);
    assert.match(good.stdout, /refresh token stored in the credentials file/);
    const stored = JSON.parse(readFileSync(credFile, 'utf8'));
    assert.notEqual(stored.refresh_token, before);
    assert.equal(stored.refresh_token, google.refreshToken, 'the token the platform issued for the code');
    assert.equal(stored.client_secret, google.clientSecret, 'the other credentials are kept');
    assert.equal(statSync(credFile).mode & 0o777, 0o600);
    assert.equal((good.stdout + good.stderr).includes(stored.refresh_token), false, 'the new token is never printed');
    const sync = await cli('sync', 'google');
    assert.equal(sync.status, 0, sync.stdout + sync.stderr);
  });

  test('the worker syncs on its interval; a failing source keeps /readyz at 200 and says so, in /metrics too', async () => {
    process.env.TRUSTPILOT_API_KEY = tp.apiKey;
    // The operator stores the business profile once; without it the service is not ready (nothing to publish).
    const store = await Store.open(db);
    await store.setBusiness(demoBusiness(), new Date().toISOString());
    await store.close();
    server = await startTestServer({
      DATABASE_URL: db,
      REVIEWCAST_DEMO_IF_EMPTY: false,
      REVIEWCAST_SYNC_INTERVAL: '1',
      REVIEWCAST_SYNC_ALLOW_PRIVATE: true,
      REVIEWCAST_SYNC_CA_FILE: pki.caFile,
      REVIEWCAST_SYNC_RETRY_BASE_MS: 10,
    });
    const http = client(server.url);
    // /metrics is not part of the REST surface's OpenAPI document: plain fetch.
    const metricsText = async () => (await fetch(new URL('/metrics', server.url))).text();
    tp.seed(1, 31);
    await waitFor(
      async () =>
        (await http.get('/reviews.json'))
          .json()
          .reviews.some((r: { source_review_id?: string; text: string }) => r.text.startsWith('Trustpilot review 31:')),
      'the new review served',
      15_000,
    );
    const ready = await http.get('/readyz');
    assert.equal(ready.status, 200);
    const byName = (body: { sources: { name: string; status: string; last_error: string | null }[] }) =>
      Object.fromEntries(body.sources.map((s) => [s.name, s]));
    assert.equal(byName(ready.json()).trustpilot.status, 'ok');
    const metrics = await metricsText();
    assert.match(metrics, /^reviewcast_source_last_success_timestamp_seconds\{source="trustpilot"\} [1-9]/m);
    assert.match(metrics, /^reviewcast_source_failing\{source="trustpilot"\} 0$/m);
    assert.match(metrics, /^reviewcast_source_reviews_seen_total\{source="google"\} [1-9]/m);

    tp.apiKey = 'rotated-on-the-platform';
    const failing = await waitFor(
      async () => {
        const r = await http.get('/readyz');
        return r.status === 200 && byName(r.json()).trustpilot.status === 'failing' ? r : null;
      },
      'readyz to report the failing source',
      15_000,
    );
    assert.match(byName(failing.json()).trustpilot.last_error!, /^trustpilot: API key rejected \(status 401\)/);
    assert.equal(byName(failing.json()).google.status, 'ok');
    assert.match(await metricsText(), /^reviewcast_source_failing\{source="trustpilot"\} 1$/m);
    assert.equal((await http.get('/reviews.json')).status, 200, 'data is still served');
    const list = await cli('sources', 'list');
    assert.match(list.stdout, /status: failing/);
    assert.match(list.stdout, /last error .*: trustpilot: API key rejected/);
    outputs.push(failing.text, await metricsText(), (await http.get('/reviews.json')).text);
  });

  test('sources remove forgets the source (its reviews stay published)', async () => {
    const r = await cli('sources', 'remove', 'trustpilot');
    assert.equal(r.status, 0);
    assert.match((await cli('sources', 'list')).stdout, /^google/);
    assert.doesNotMatch((await cli('sources', 'list')).stdout, /^trustpilot/m);
    assert.equal((await cli('sources', 'remove', 'trustpilot')).status, 1);
  });

  test('no secret in any CLI output, response body or stored row', async () => {
    const rows = JSON.stringify(await sourceRows(server.store));
    const all = outputs.join('\n') + rows;
    assert.ok(all.length > 1000);
    for (const s of secrets()) assert.equal(all.includes(s), false, 'a secret leaked');
  });
});
