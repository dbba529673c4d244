export { DEMO_BUSINESS } from './business.js';
export { type DemoOptions, demoBusiness, generateDemoReviews, prng } from './generate.js';
export { writeDemoFile } from './write-file.js';
