import { chmod, readFile, writeFile } from 'node:fs/promises';
import { ApiClient, type ApiClientOptions } from './api-client.js';
import { SyncError } from './errors.js';
import { tokenRequest } from './google.js';
import type { GoogleSettings } from './settings.js';

/** The scope the v4 reviews endpoints need (accounts.locations.reviews.list, "Authorization scopes"). */
export const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/business.manage';
const CONSENT_URL = 'https://accounts.google.com/o/oauth2/v2/auth';

export interface GoogleAuthOptions {
  redirectUri: string;
}

/** The consent page the operator opens once; offline access + consent prompt make Google issue a refresh token. */
export function googleConsentUrl(settings: GoogleSettings, opts: GoogleAuthOptions): string {
  const url = new URL(CONSENT_URL);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: opts.redirectUri,
    response_type: 'code',
    scope: GOOGLE_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
  }).toString();
  return url.href;
}

/**
 * Exchanges the authorization code for a refresh token and writes it into the source's credentials
 * file (mode 600), keeping the file's other keys. The token is never printed.
 */
export async function googleExchangeCode(
  source: string,
  settings: GoogleSettings,
  clientSecret: string,
  code: string,
  opts: GoogleAuthOptions & { api: ApiClientOptions },
): Promise<void> {
  if (settings.credentials.from !== 'file')
    throw new SyncError(
      source,
      `credentials come from environment variables: set $${settings.credentials.names.refresh_token ?? 'GOOGLE_REFRESH_TOKEN'} yourself, or add the source with --credentials-file so this command can write the token`,
    );
  const api = new ApiClient(source, [settings.tokenUrl], opts.api);
  try {
    const { body, error } = await tokenRequest(api, settings.tokenUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: settings.clientId,
      client_secret: clientSecret,
      redirect_uri: opts.redirectUri,
    });
    const refreshToken = body?.refresh_token;
    if (error || typeof refreshToken !== 'string')
      throw new SyncError(source, `the code was not accepted (${error ?? 'no refresh_token'}): open the consent URL again for a new code`);
    const path = settings.credentials.path;
    let held: Record<string, unknown> = {};
    try {
      held = JSON.parse(await readFile(path, 'utf8'));
    } catch {
      held = {};
    }
    await writeFile(path, `${JSON.stringify({ ...held, refresh_token: refreshToken }, null, 2)}\n`, { mode: 0o600 });
    await chmod(path, 0o600);
  } finally {
    await api.close();
  }
}
