import { createAnalyzer } from './analyzer.js';
import { InsightRows } from './corpus/held.js';
import { ENGINE_VERSION } from './version.js';

/**
 * The engine as one value, for the composition root to hand to the catalog; `module` is this file, so
 * a worker thread given only its URL imports the same engine.
 */
export const engine = {
  version: ENGINE_VERSION,
  module: import.meta.url,
  createAnalyzer,
  insightRows: (vertical: string) => new InsightRows(vertical),
};
