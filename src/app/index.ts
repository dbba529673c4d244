export { collectGarbage } from './collect-garbage.js';
export { AUTO_IDLE, corpusIdleWait } from './corpus-idle.js';
export { closeHttp } from './http-shutdown.js';
export { collectsNow, QuietCollector } from './quiet-collector.js';
export { type RevisionListener, RevisionScheduler } from './revision-scheduler.js';
export { seedDemo } from './seed-demo.js';
export { type RunningServer, startServer } from './server.js';
