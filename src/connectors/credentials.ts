import { readFile } from 'node:fs/promises';
import { SyncError } from './errors.js';
import { type CredentialsRef, SECRETS, type SourceKind } from './settings.js';

/** Reads a source's secrets (env or file) at the moment they are needed; nothing is cached on disk or logged. */
export async function readSecrets(
  source: string,
  kind: SourceKind,
  ref: CredentialsRef,
  env = process.env,
): Promise<Record<string, string>> {
  const keys = Object.keys(SECRETS[kind]);
  const out: Record<string, string> = {};
  if (ref.from === 'env') {
    for (const key of keys) {
      const name = ref.names[key] ?? SECRETS[kind][key];
      const value = env[name];
      if (!value)
        throw new SyncError(
          source,
          `environment variable ${name} is not set (it holds the ${key}); export it in the service's environment`,
        );
      out[key] = value;
    }
    return out;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(ref.path, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? 'not valid JSON';
    throw new SyncError(
      source,
      `credentials file ${ref.path} cannot be read (${why}); fix it or run \`reviewcast sources add ${kind}\` again`,
    );
  }
  for (const key of keys) {
    const value = (parsed as Record<string, unknown> | null)?.[key];
    if (typeof value !== 'string' || !value)
      throw new SyncError(
        source,
        `credentials file ${ref.path} has no "${key}"${kind === 'google' && key === 'refresh_token' ? ': run `reviewcast sources auth google`' : ''}`,
      );
    out[key] = value;
  }
  return out;
}

/** Every secret value of a source, to scrub from any text that leaves the process (errors, logs). */
export function scrub(text: string, secrets: Record<string, string>): string {
  let out = text;
  for (const v of Object.values(secrets)) if (v.length >= 4) out = out.split(v).join('***');
  return out;
}
