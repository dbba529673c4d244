#!/usr/bin/env node
// The CLI compiled and bundled by `npm run build` (run by `npm install` through `prepare`, and before packing).
import '../dist/bundle/main.js';
