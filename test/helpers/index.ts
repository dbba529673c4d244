export { carriedByKey, carriedFrom } from './carried.js';
export { competingWriter } from './competing-writer.js';
export { engine as faultyEngine, FAULT } from './faulty-engine.js';
export { client } from './http.js';
export { GOOD_RECORD, importedState, importFileIn } from './import-files.js';
export { capturedLog, tookOver } from './log.js';
export { collect } from './pages.js';
export { freshPgDatabase, PG_SKIP } from './pg.js';
export { CLI, type ServerProcess, spawnCommand, spawnServe } from './process.js';
export { rawDb } from './raw-db.js';
export { headerOf, type Raw, raw } from './raw-http.js';
export { storedReviews } from './rows.js';
export { dayArb, REVIEW_SENTENCES, reviewTextArb } from './sentences.js';
export { startTestServer } from './server.js';
export { engine as slowImageEngine, SLOW_IMAGE_MS } from './slow-image-engine.js';
export { joinedSnapshot } from './snapshot.js';
export { niceByThread } from './threads.js';
export { tempDir } from './tmp.js';
export { watchAspectMask } from './watched-rows.js';
export {
  FAST,
  fakeCatalog,
  goodSubscriber,
  hmac,
  makePki,
  Subscriber,
  sleep,
  startHub,
  type TestHub,
  type TestPki,
  waitFor,
} from './websub-harness.js';
