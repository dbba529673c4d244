import { z } from 'zod';
import type { Config } from '../config.js';

const DAY = 86_400;

/**
 * Hub settings. Every field has a default so `HubConfigSchema.parse({})` is a safe production setup;
 * the two test-only fields (allowPrivateCallbacks, caFile) loosen where the hub may connect and whom it
 * trusts, never whether TLS is verified.
 */
export const HubConfigSchema = z
  .object({
    /** Lease granted when the subscriber asks for none; requests are clamped into [min, max]. */
    leaseDefaultSeconds: z
      .number()
      .int()
      .positive()
      .default(10 * DAY),
    leaseMinSeconds: z.number().int().positive().default(300),
    leaseMaxSeconds: z
      .number()
      .int()
      .positive()
      .default(30 * DAY),
    /** Whole outbound request (connect, TLS, headers, body) must finish within this; capped at 10 s. */
    requestTimeoutMs: z.number().int().positive().max(10_000).default(10_000),
    connectTimeoutMs: z.number().int().positive().max(10_000).default(5_000),
    /** Bytes of a subscriber's response body read at most (the rest is discarded). */
    maxResponseBytes: z
      .number()
      .int()
      .positive()
      .max(64 * 1024)
      .default(4 * 1024),
    /** Parallel outbound requests per process (verifications + deliveries). */
    concurrency: z.number().int().positive().max(4096).default(256),
    /** Parallel connections to one subscriber origin. */
    connectionsPerOrigin: z.number().int().positive().default(32),
    /** Consecutive failed delivery attempts that remove a subscription. */
    maxConsecutiveFailures: z.number().int().positive().default(3),
    /** Retry n waits retryBaseMs × retryFactor^(n-1) (±20 % jitter), at most retryMaxMs. */
    retryBaseMs: z.number().int().nonnegative().default(120_000),
    retryFactor: z.number().positive().default(5),
    retryMaxMs: z.number().int().positive().default(3_600_000),
    /** How long a worker owns a claimed job; after that another worker (or a restart) takes it over. */
    claimLeaseMs: z.number().int().positive().default(30_000),
    /** How often the worker looks for due jobs it was not woken for (retries, other replicas' requests). */
    pollIntervalMs: z.number().int().positive().default(1_000),
    /** Unverified requests kept at most; beyond it the hub answers 503. */
    maxPendingVerifications: z.number().int().positive().default(1_000),
    /** Subscribe/unsubscribe requests per client address: a bucket of `burst`, refilled at `perMinute`. */
    rateLimitPerClient: z
      .object({ perMinute: z.number().positive(), burst: z.number().int().positive() })
      .default({ perMinute: 30, burst: 10 }),
    /** ... and per callback host, so one target cannot be flooded with verifications from many clients. */
    rateLimitPerCallbackHost: z
      .object({ perMinute: z.number().positive(), burst: z.number().int().positive() })
      .default({ perMinute: 60, burst: 20 }),
    /** Interval of the one-line metrics summary in the log; 0 disables it. */
    metricsLogIntervalMs: z.number().int().nonnegative().default(60_000),
    /** TEST ONLY: allow callbacks on loopback/private/reserved addresses. */
    allowPrivateCallbacks: z.boolean().default(false),
    /** TEST ONLY: a PEM file of an extra CA to trust (in addition to the system roots). */
    caFile: z.string().min(1).optional(),
  })
  .refine((c) => c.leaseMinSeconds <= c.leaseMaxSeconds, { message: 'leaseMinSeconds must not exceed leaseMaxSeconds' });

export type HubConfig = z.infer<typeof HubConfigSchema>;
export type HubConfigInput = z.input<typeof HubConfigSchema>;

/** What /developers tells subscribers about the hub: the running values, not the defaults. */
export type HubLimits = Pick<
  HubConfig,
  | 'leaseDefaultSeconds'
  | 'leaseMinSeconds'
  | 'leaseMaxSeconds'
  | 'maxConsecutiveFailures'
  | 'rateLimitPerClient'
  | 'rateLimitPerCallbackHost'
  | 'requestTimeoutMs'
>;

/** The hub's settings from the service configuration; the composition root hands the one result to the hub, the worker and the pages. */
export function hubConfigFrom(config: Config): HubConfig {
  return HubConfigSchema.parse({
    allowPrivateCallbacks: config.hubAllowPrivateCallbacks,
    caFile: config.hubCaFile ?? undefined,
    claimLeaseMs: config.hubClaimLeaseMs,
    rateLimitPerClient: { perMinute: config.hubRequestsPerMinute, burst: Math.max(1, Math.round(config.hubRequestsPerMinute / 3)) },
  });
}

export const clampLease = (
  requested: number | undefined,
  c: Pick<HubConfig, 'leaseDefaultSeconds' | 'leaseMinSeconds' | 'leaseMaxSeconds'>,
) => Math.min(c.leaseMaxSeconds, Math.max(c.leaseMinSeconds, requested ?? c.leaseDefaultSeconds));

/** Delay before retry `attempt` (1-based), jittered so a failed fan-out does not retry in lockstep. */
export function retryDelayMs(
  attempt: number,
  c: Pick<HubConfig, 'retryBaseMs' | 'retryFactor' | 'retryMaxMs'>,
  random = Math.random,
): number {
  const plain = Math.min(c.retryMaxMs, c.retryBaseMs * c.retryFactor ** Math.max(0, attempt - 1));
  return Math.round(plain * (0.8 + 0.4 * random()));
}
