// Types of scripts/bundle.js (plain JavaScript: the build runs before anything is compiled), for the tests.
export const EXTERNAL: readonly string[];
export function bundleIsCurrent(root: string, bundle: string, alsoFrom?: string[]): boolean;
export function bundleCli(root: string, dist: string, bundle: string): Promise<void>;
