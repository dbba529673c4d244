import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, get, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import Fastify from 'fastify';
import { closeHttp } from '../../src/app/index.js';
import { capturedLog } from '../helpers/index.js';

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

// Fastify keeps an idle connection 72 s and the grace here is 10 minutes: a close that waited for
// either would overrun this bound, which is how a regression fails rather than hangs.
test('closeHttp lets a request under way on a kept-alive connection finish, then closes the connection at once, cutting nothing', {
  timeout: 30_000,
}, async () => {
  const { log, lines } = capturedLog();
  const app = Fastify();
  let answer!: () => void;
  const answered = new Promise<void>((r) => (answer = r));
  let entered!: () => void;
  const inHandler = new Promise<void>((r) => (entered = r));
  app.get('/slow', async () => {
    entered();
    await answered;
    return { ok: true };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const agent = new Agent({ keepAlive: true });
  const response = paused(`${url}/slow`, agent);
  // The close begins while the request waits in its handler.
  await inHandler;
  const closing = closeHttp(app, 600_000, log);
  // Answered a little after the close began: a close that cut at once would have cut this request.
  await new Promise((r) => setTimeout(r, 50));
  answer();
  const res = await response;
  assert.equal(res.headers.connection, 'keep-alive', 'the answer went out on a kept-alive connection');
  res.resume();
  await once(res, 'end');
  await closing;
  assert.ok(!lines.some((l) => l.msg === GRACE_MESSAGE), 'nothing was cut');
  agent.destroy();
});

test('closeHttp closes, after the grace, a connection whose response never ends, and says so', { timeout: 30_000 }, async () => {
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
