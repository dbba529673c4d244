export { Catalog, CATALOG_FORMAT, FEED_SIZE, type CatalogInput, type CatalogUpdate, type CatalogSnapshot, type Representations } from './catalog.js';
export { Representation, PER_URL, PER_REVISION, httpDate, type CompressionPolicy, type Encoding } from './representation.js';
export { links, websubLinkHeader, type Links } from './render/links.js';
export { xmlSafe } from './render/atom.js';
export { TextIndex } from './text-index.js';
export { ReviewIndex } from './review-index.js';
