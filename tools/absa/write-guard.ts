// What the data tools (assemble:absa, split:absa) may write over. Labelled sentences are the one thing the project
// cannot regenerate, so a file a model trains on is never written over, and any other existing file only on request.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CONFIGS, ROOT, trainedPaths } from './trainer.js';

/**
 * Why a set may not be written to `out` (a resolved real path), or null: a file a model trains on never; any other
 * existing file only when asked to replace it (a set re-made from its batches).
 */
export function writeRefusal(
  out: string,
  { trained, exists, replace }: { trained: ReadonlySet<string>; exists: boolean; replace: boolean },
): string | null {
  if (trained.has(out)) return `${out} trains a model: write the set to a file of its own`;
  if (exists && !replace) return `${out} exists: give --replace to write over it`;
  return null;
}

/** A path with its folder's links resolved, so that a link cannot stand in for a file the guard knows by name. */
export function realPath(path: string): string {
  const folder = dirname(resolve(path));
  return existsSync(folder) ? join(realpathSync(folder), basename(path)) : resolve(path);
}

/** The first refusal among `paths` (see writeRefusal), or null when all may be written. */
export function refuseWrites(paths: readonly string[], replace: boolean): string | null {
  const trained = new Set(Object.values(CONFIGS).flatMap((c) => trainedPaths(c).map((p) => realPath(resolve(ROOT, p)))));
  for (const path of paths) {
    const out = realPath(path);
    const refusal = writeRefusal(out, { trained, exists: existsSync(out), replace });
    if (refusal !== null) return refusal;
  }
  return null;
}
