import { type ParseArgsConfig, parseArgs } from 'node:util';

/** node:util's parseArgs, or null where it refuses the arguments (an unknown option, one without its value): the caller prints its usage. */
export function parseArgsOrNull<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> | null {
  try {
    return parseArgs(config);
  } catch {
    return null;
  }
}
