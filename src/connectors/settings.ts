import { z } from 'zod';

export const SOURCE_KINDS = ['google', 'trustpilot'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * Where a source's secrets are read at sync time. Only this reference is stored: environment
 * variable names, or the path of a JSON file the operator keeps (mode 600).
 */
export const CredentialsRefSchema = z.discriminatedUnion('from', [
  z.object({ from: z.literal('env'), names: z.record(z.string(), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)) }),
  z.object({ from: z.literal('file'), path: z.string().min(1) }),
]);
export type CredentialsRef = z.infer<typeof CredentialsRefSchema>;

const httpsBase = z
  .url({ protocol: /^https$/ })
  .transform((u) => u.replace(/\/+$/, ''))
  .refine((u) => !new URL(u).username && !new URL(u).password, 'must not contain credentials');

export const GoogleSettingsSchema = z.object({
  kind: z.literal('google'),
  account: z.string().regex(/^[A-Za-z0-9_-]+$/, 'the account id (the part after accounts/)'),
  location: z.string().regex(/^[A-Za-z0-9_-]+$/, 'the location id (the part after locations/)'),
  /** The OAuth client id is not a secret (it appears in every consent URL). */
  clientId: z.string().min(1),
  apiBase: httpsBase.default('https://mybusiness.googleapis.com/v4'),
  tokenUrl: httpsBase.default('https://oauth2.googleapis.com/token'),
  credentials: CredentialsRefSchema,
});
export type GoogleSettings = z.output<typeof GoogleSettingsSchema>;

export const TrustpilotSettingsSchema = z.object({
  kind: z.literal('trustpilot'),
  businessUnit: z.string().regex(/^[A-Za-z0-9_-]+$/, 'the business unit id'),
  apiBase: httpsBase.default('https://api.trustpilot.com/v1'),
  credentials: CredentialsRefSchema,
});
export type TrustpilotSettings = z.output<typeof TrustpilotSettingsSchema>;

export const SourceSettingsSchema = z.discriminatedUnion('kind', [GoogleSettingsSchema, TrustpilotSettingsSchema]);
export type SourceSettings = z.output<typeof SourceSettingsSchema>;
export type SourceSettingsInput = z.input<typeof SourceSettingsSchema>;

/** The secrets each platform needs, by the key used in a credentials file and the default env var. */
export const SECRETS: Record<SourceKind, Record<string, string>> = {
  google: { client_secret: 'GOOGLE_CLIENT_SECRET', refresh_token: 'GOOGLE_REFRESH_TOKEN' },
  trustpilot: { api_key: 'TRUSTPILOT_API_KEY' },
};
