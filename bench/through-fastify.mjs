// Reviewcast with every request through Fastify (the datasets' fast path off), beside the usual server in
// the REST bench: what the fast path saves, in the same run. Plain JavaScript over the compiled dist/, so
// not type-checked (`fastPath` is startServer's option in src/app/server.ts, and the bench checks /metrics
// that nothing was answered ahead of Fastify). The server beside it runs the same code bundled, which
// changes how it loads, not how it serves. Usage: node bench/through-fastify.mjs DATABASE
import { startServer } from '../dist/app/index.js';

const server = await startServer(
  { DATABASE_URL: process.argv[2], PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'warn', REVIEWCAST_DEMO_IF_EMPTY: false },
  { fastPath: false },
);
while ((await fetch(`${server.url}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 100));
console.log(`listening ${server.url}`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
