import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import type { RunningServer } from '../../src/app/index.js';
import { importRows } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { CLI, collect, rawDb, startTestServer, tempDir, waitFor } from '../helpers/index.js';

const run = promisify(execFile);
let server: RunningServer | undefined;
after(() => server?.close());

test('a running server serves an import made by the CLI in another process within 2 seconds', async () => {
  const dir = tempDir();
  const db = join(dir, 'shared.db');
  server = await startTestServer({ DATABASE_URL: db, REVIEWCAST_POLL_MS: 500 });
  const before = await (await fetch(`${server.url}/reviews.json`)).json();
  const file = join(dir, 'new.ndjson');
  writeFileSync(
    file,
    `${JSON.stringify({ source: 'direct', author: 'Fresh Customer', rating: 5, date: '2026-11-20', text: 'Priya replaced our water heater in an hour.' })}\n`,
  );
  const { stdout } = await run(process.execPath, [CLI, 'import', file, '--database-url', db]);
  assert.match(stdout, /1 added, 0 updated, 0 unchanged, 0 invalid/);
  // Polls the served document until the revision moves; how soon depends on the machine's load, so no clock.
  let doc = before;
  while (doc.revision === before.revision) {
    await new Promise((r) => setTimeout(r, 50));
    doc = await (await fetch(`${server.url}/reviews.json`)).json();
  }
  assert.equal(doc.revision, before.revision + 1, 'the next revision is served');
  assert.equal(doc.reviews[0].author, 'Fresh Customer');
  assert.deepEqual(doc.reviews[0].technicians, ['priya-natarajan'], 'attributed from the text');
  assert.deepEqual(doc.reviews[0].services, ['water-heater']);
  const insights = await (await fetch(`${server.url}/insights.json`)).json();
  assert.equal(insights.review_count, before.reviews.length + 1, 'insights recomputed for the new revision');
});

test('a server on SQLite checks at once when another process writes, not at its next poll', async () => {
  const dir = tempDir();
  const db = join(dir, 'watched.db');
  // The longest poll there is: a revision served well before it was seen through the file's log.
  const watching = await startTestServer({ DATABASE_URL: db, REVIEWCAST_POLL_MS: 60_000 });
  try {
    const before = await (await fetch(`${watching.url}/reviews.json`)).json();
    const file = join(dir, 'new.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify({ source: 'direct', author: 'Watched Customer', rating: 4, date: '2026-11-21', text: 'Came back the next morning to finish the job.' })}\n`,
    );
    await run(process.execPath, [CLI, 'import', file, '--database-url', db]);
    const served = await waitFor(
      async () => {
        const doc = await (await fetch(`${watching.url}/reviews.json`)).json();
        return doc.revision > before.revision && doc;
      },
      'the import served before the next poll (60 s)',
      30_000,
    );
    assert.equal(served.reviews[0].author, 'Watched Customer');
  } finally {
    await watching.close();
  }
});

test('SIGTERM lets an in-flight request finish, then exits 0', async () => {
  const db = join(tempDir(), 'sigterm.db');
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--database-url', db], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/"url":"(http:[^"]+)".*"reviewcast listening"/);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Responses in flight when SIGTERM arrives: headers received, bodies not yet read by the client; every
  // one must still arrive whole after the signal, and the process must then exit cleanly.
  const { get } = await import('node:http');
  const responses = await Promise.all(
    Array.from(
      { length: 12 },
      () =>
        new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
          get(`${url}/reviews.json`, { headers: { 'accept-encoding': 'identity' }, agent: false }, (res) => {
            res.pause();
            resolve(res);
          }).on('error', reject),
        ),
    ),
  );
  child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  for (const response of responses) {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    assert.equal(response.statusCode, 200);
    assert.equal(JSON.parse(Buffer.concat(chunks).toString()).reviews.length, 2000);
  }
  assert.equal(await exited, 0);
  assert.match(out, /shutting down/);
});

test('a restart loads the stored snapshot: same bytes, same ETags, analyses still reachable', async () => {
  const db = join(tempDir(), 'restart.db');
  const base = 'https://reviews.restart.example';
  const first = await startTestServer({ DATABASE_URL: db, PUBLIC_BASE_URL: base });
  const paths = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'];
  // Each coding's ETag: identity, and gzip waited for (a large body's first gzip request may otherwise come in identity).
  const etags = (url: string) =>
    Promise.all(
      paths.flatMap((p) =>
        ['identity', 'gzip, identity;q=0'].map(async (coding) =>
          (await fetch(url + p, { headers: { 'accept-encoding': coding } })).headers.get('etag'),
        ),
      ),
    );
  const before = await etags(first.url);
  const someId = first.catalog.get().reviews[3].id;
  const analysis = first.catalog.get().insights.per_review[someId];
  await first.close();
  const second = await startTestServer({ DATABASE_URL: db, PUBLIC_BASE_URL: base });
  try {
    const after = await etags(second.url);
    assert.deepEqual(after, before);
    assert.deepEqual(second.catalog.get().insights.per_review[someId], analysis);
    assert.deepEqual(JSON.parse(JSON.stringify(second.catalog.get().insights)).per_review[someId], analysis);
  } finally {
    await second.close();
  }
});

test('a server started from a snapshot builds the next revision on it, byte for byte what a full build serves', async () => {
  const dir = tempDir();
  const db = join(dir, 'update.db');
  const base = 'https://reviews.update.example';
  await (await startTestServer({ DATABASE_URL: db, PUBLIC_BASE_URL: base })).close();
  const loaded = await startTestServer({ DATABASE_URL: db, PUBLIC_BASE_URL: base });
  const paths = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'];
  // Each coding's ETag and body: identity, and gzip waited for (a large body's first gzip request may
  // otherwise come in identity, depending on whether its gzip was made yet).
  const CODINGS = ['identity', 'gzip, identity;q=0'];
  const representation = async (url: string, path: string, coding: string) => {
    const res = await fetch(url + path, { headers: { 'accept-encoding': coding } });
    return { path, coding, etag: res.headers.get('etag'), body: await res.text() };
  };
  let served: { path: string; coding: string; etag: string | null; body: string }[];
  try {
    const store = await Store.open(db);
    const before = loaded.catalog.get().revision;
    await importRows(
      store,
      [
        {
          index: 0,
          value: {
            source: 'direct',
            source_review_id: 'snap-1',
            author: 'Lee',
            rating: 2,
            date: '2026-11-20',
            text: 'Sarah was late, but the new water heater works.',
          },
        },
      ],
      [],
    );
    // An edit of a review the loaded snapshot holds: same platform id, new text and rating.
    const raw = rawDb(db);
    const edited = await raw
      .selectFrom('reviews')
      .selectAll()
      .where('id', '=', loaded.catalog.get().reviews[10].id)
      .executeTakeFirstOrThrow();
    await raw.destroy();
    assert.ok(edited.source_review_id);
    await importRows(
      store,
      [
        {
          index: 0,
          value: {
            source: edited.source,
            source_review_id: edited.source_review_id,
            author: edited.author,
            rating: 1,
            date: edited.date,
            text: 'Changed my mind.',
          },
        },
      ],
      [],
    );
    await store.close();
    while (loaded.catalog.get().revision < before + 2) await new Promise((r) => setTimeout(r, 20));
    served = await Promise.all(paths.flatMap((p) => CODINGS.map((coding) => representation(loaded.url, p, coding))));
  } finally {
    await loaded.close();
  }
  // The same database with no stored snapshot: the next server reads everything and renders from scratch.
  const store = await Store.open(db);
  assert.equal(
    (await collect(store.analysisPages(null))).length,
    await store.publishedCount(),
    'the analyses the update computed were stored',
  );
  const raw = rawDb(db);
  await raw.deleteFrom('catalog_snapshots').execute();
  await raw.destroy();
  await store.close();
  const scratch = await startTestServer({ DATABASE_URL: db, PUBLIC_BASE_URL: base });
  try {
    const fresh = await Promise.all(paths.flatMap((p) => CODINGS.map((coding) => representation(scratch.url, p, coding))));
    assert.deepEqual(fresh, served);
    assert.equal(scratch.catalog.get().insights.review_count, 2_001);
    assert.match(served[0].body, /Changed my mind\./);
  } finally {
    await scratch.close();
  }
});
