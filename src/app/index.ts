export { startServer, type RunningServer } from './server.js';
export { CatalogSource, type RevisionListener } from './catalog-source.js';
export { seedDemo } from './seed-demo.js';
