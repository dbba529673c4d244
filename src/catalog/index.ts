export { Catalog, CATALOG_FORMAT, FEED_SIZE, type CatalogSnapshot, type Representations, unpackLayouts } from './catalog.js';
export { buildCatalog, type CatalogInput, type CatalogUpdate } from './build-catalog.js';
export { type CorpusEngine, CorpusWorker, LocalCorpus } from './corpus-worker.js';
export { StaleCorpusError } from './corpus-model.js';
export { Representation, httpDate, type Encoding } from './representation.js';
export { links, websubLinkHeader, type Links } from './render/links.js';
export { xmlSafe } from './render/atom.js';
export { TextIndex } from './text-index.js';
export { ReviewIndex } from './review-index.js';
