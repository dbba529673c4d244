import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import { pino } from 'pino';
import { type Catalog, MemoBudget } from '../../src/catalog/index.js';
import { NotReadyError } from '../../src/domain/index.js';
import { buildApp } from '../../src/http/index.js';

// The REST surface before its first revision: the catalog getter throws the named not-ready error.
const lines: { level: number; msg: string }[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const app = await buildApp({
  catalog: (): Catalog => {
    throw new NotReadyError('the catalog is still loading');
  },
  logger: pino({ level: 'info' }, sink),
  ready: async () => {},
  memo: new MemoBudget(1 << 20),
});
await app.listen({ port: 0, host: '127.0.0.1' });
after(() => app.close());
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

test('a data request while the catalog loads is 503 not_ready with the reason, and logs no error', async () => {
  for (const path of ['/reviews.json', '/api/reviews/search?rating=5', '/readyz']) {
    const res = await fetch(base + path);
    assert.equal(res.status, 503, path);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('retry-after'), '5', path);
    assert.deepEqual(await res.json(), { error: 'not_ready', message: 'the catalog is still loading' }, path);
  }
  assert.deepEqual(
    lines.filter((l) => l.level >= 50),
    [],
    'not ready is an answer, not a failure',
  );
});
