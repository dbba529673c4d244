import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, get, type IncomingMessage } from 'node:http';
import { Readable, Writable } from 'node:stream';
import { test } from 'node:test';
import Fastify from 'fastify';
import { pino } from 'pino';
import { closeHttp } from '../../src/app/index.js';

/** A logger whose lines the test reads. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

const GRACE_MESSAGE = 'shutdown grace is over: closing the connections still open';

/** A GET on a kept-alive connection, its body not read yet. */
function paused(url: string, agent: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) =>
    get(url, { agent, headers: { 'accept-encoding': 'identity' } }, (res) => {
      res.pause();
      resolve(res);
    }).on('error', reject),
  );
}

test('closeHttp closes, after the grace, a connection whose response never ends, and says so', async () => {
  const { log, lines } = capturedLog();
  const app = Fastify();
  // A body that never ends, read or not: what a client that stops reading makes of a large one.
  app.get('/endless', (_req, reply) =>
    reply.send(
      new Readable({
        read() {
          this.push(Buffer.alloc(64 * 1024, 'x'));
        },
      }),
    ),
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const res = await paused(`${url}/endless`, new Agent({ keepAlive: true }));
  res.on('error', () => {});
  const socketClosed = once(res.socket, 'close');
  await closeHttp(app, 1000, log);
  assert.ok(
    lines.some((l) => l.msg === GRACE_MESSAGE && l.grace_ms === 1000),
    'the cut is logged',
  );
  // Reading again, the client finds its connection closed.
  res.resume();
  await socketClosed;
});
