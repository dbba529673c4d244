// Bump whenever a change would alter any stored ReviewAnalysis (lexicons, rules, thresholds): callers compare
// a stored analysis's `engine` with this value and recompute the ones that differ.
export const ENGINE_VERSION = 'absa-hybrid/2.16.0';
