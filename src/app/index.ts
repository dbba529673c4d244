export { CatalogSource, type RevisionListener } from './catalog-source.js';
export { seedDemo } from './seed-demo.js';
export { type RunningServer, startServer } from './server.js';
