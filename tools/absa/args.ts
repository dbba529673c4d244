import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * node:util's parseArgs, or null where it refuses the arguments (an unknown option, one without its value): the caller
 * prints its usage. A `--` is dropped wherever it stands (a shell or `npm run` may pass one on), so options after it
 * are still options.
 */
export function parseArgsOrNull<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> | null {
  try {
    return parseArgs<T>({ ...config, args: config.args?.filter((a) => a !== '--') });
  } catch {
    return null;
  }
}
