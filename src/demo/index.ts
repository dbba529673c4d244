export { DEMO_BUSINESS } from './business.js';
export { demoBusiness, generateDemoReviews, prng, type DemoOptions } from './generate.js';
