#!/usr/bin/env node
// The CLI compiled by `npm run build` (run by `npm install` through `prepare`, and before packing).
import '../dist/cli/main.js';
