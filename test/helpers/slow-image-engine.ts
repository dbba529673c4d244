import type { Engine } from '../../src/catalog/index.js';
import { engine as real } from '../../src/insights/index.js';

/** How long the slow engine takes to make a corpus image: a window in which a test acts while a fresh corpus thread waits for one. */
export const SLOW_IMAGE_MS = 2000;

/**
 * The real engine, except that its row maker holds its thread for SLOW_IMAGE_MS before making a corpus
 * image. Its `module` is this file, so a corpus thread given it loads the same delay.
 */
export const engine: Engine = {
  ...real,
  module: import.meta.url,
  insightRows(vertical) {
    const maker = real.insightRows(vertical);
    const image = maker.image.bind(maker);
    maker.image = (rows, preamble) => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SLOW_IMAGE_MS);
      return image(rows, preamble);
    };
    return maker;
  },
};
