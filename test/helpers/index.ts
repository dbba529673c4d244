export { CLI, spawnServe, spawnCommand, type ServerProcess } from './process.js';
export { startTestServer } from './server.js';
export { collect } from './pages.js';
export { tempDir } from './tmp.js';
export { catalogRows } from './rows.js';
export { type TestHub, type TestPki, Subscriber, goodSubscriber, makePki, startHub, waitFor, sleep, fakeCatalog, FAST, hmac } from './websub-harness.js';
export { client } from './http.js';
export { PG_SKIP, freshPgDatabase } from './pg.js';
