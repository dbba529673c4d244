export { DEMO_BUSINESS } from './business.js';
export { demoBusiness, generateDemoReviews, type DemoOptions } from './generate.js';
