#!/usr/bin/env node
// The CLI is TypeScript run through tsx's loader, so an installed package and a checkout behave the same.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
