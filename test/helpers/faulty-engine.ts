import type { Engine } from '../../src/catalog/index.js';
import { engine as real } from '../../src/insights/index.js';

/** A review text holding this makes the faulty engine throw, as an engine bug on one wording would. */
export const FAULT = 'qqzx-fault';

/**
 * The real engine, except that its analyzer throws on a text holding FAULT. Its `module` is this file,
 * so an analysis or corpus thread given it loads the same fault.
 */
export const engine: Engine = {
  ...real,
  module: import.meta.url,
  createAnalyzer(options) {
    const analyzer = real.createAnalyzer(options);
    return {
      analyze(input) {
        if (input.text?.includes(FAULT)) throw new Error('engine fault (test)');
        return analyzer.analyze(input);
      },
    };
  },
};
