// The constants of spec part 3.1 and 8, in one place. Durations are milliseconds.
const MINUTE = 60_000;

export const CREDENTIAL_KINDS = ['plugin', 'self', 'http'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

export const REPORT_EVENTS = ['round_start', 'round_end', 'periodic'] as const;
export type ReportEvent = (typeof REPORT_EVENTS)[number];

/** Why a report left the seed without a window (an additive v1 field of the answer). */
export const NO_WINDOW_REASONS = ['cooldown', 'gap', 'busy', 'closed', 'not_open', 'other_key'] as const;
export type NoWindowReason = (typeof NO_WINDOW_REASONS)[number];

/** Block cap per credential kind; a seed's budget equals the cap of the reporting key's kind. */
export const BLOCK_CAP_MS: Record<CredentialKind, number> = {
  plugin: 60 * MINUTE,
  self: 60 * MINUTE,
  http: 20 * MINUTE,
};

export const SEED_COOLDOWN_MS = 5 * MINUTE;
export const SERVER_GAP_MS = 5 * MINUTE;
export const DETECTION_PURGE_MS = 5 * MINUTE;
export const SELF_CLAIM_SILENCE_MS = 60 * MINUTE;
export const SELF_CLAIM_INTERVAL_MS = 5 * MINUTE;
export const SELF_CLAIM_LIVE_MAX = 3;
export const SELF_CLAIM_UNUSED_LAPSE_MS = 24 * 60 * MINUTE;
export const CLAIM_CODE_TTL_MS = 30 * MINUTE;
/** Spec 4.4: plugin claims (with a code) exist since this plugin version. */
export const PLUGIN_CLAIM_SINCE = '1.1.0';
/**
 * Not the spec's: how long a claim answered 503 because the replicas did not confirm it may be
 * retried as the same claim (the same code, or a self-claim of the same address): the
 * registration nobody was told about is replaced, so the retry meets neither its own used code
 * nor its own address in use (store/acknowledged.ts).
 */
export const CLAIM_RETRY_MS = 10 * MINUTE;
export const HTTP_KEYS_PER_OWNER = 3;
/** Claim codes a chat member may hold live at once (open, under review, or approved and not used). */
export const CLAIM_CODES_LIVE_PER_MEMBER = 3;
/** Claim codes a chat member may be issued in any CLAIM_CODES_DAY_MS, whatever became of them. */
export const CLAIM_CODES_PER_MEMBER_PER_DAY = 10;
export const CLAIM_CODES_DAY_MS = 24 * 60 * MINUTE;
/** A claim review still pending this long is brought up again to the moderators, once. */
export const REVIEW_REMIND_AFTER_MS = 30 * MINUTE;
/** The audit trail keeps at most this many entries, none older than AUDIT_MAX_AGE_MS. */
export const AUDIT_MAX_ENTRIES = 10_000;
export const AUDIT_MAX_AGE_MS = 90 * 24 * 60 * MINUTE;

export const SEED_MIN = 1;
export const SEED_MAX = 2_147_483_647;
export const PORT_MIN = 1;
export const PORT_MAX = 65_535;

export const SEEDS_PAGE_DEFAULT = 200;
export const SEEDS_PAGE_MAX = 500;
export const PROTECTION_RECENT_MAX = 10;
export const STATS_CACHE_MS = MINUTE;
export const VERSION_CACHE_SECONDS = 300;
export const MAX_BODY_BYTES = 16 * 1024;

/** One limit of spec part 8: `limit` per `windowMs`, keyed `per`, counting `unit` (words, for the docs). */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
  readonly per: string;
  readonly unit: string;
  /**
   * What a hit is: every request of the route (`request`, counted before its body is read), or
   * one step only some requests reach (`step`: a game-server check, a stats cache miss, a seed not
   * generated yet), counted by the route's handler when it takes that step.
   */
  readonly when: 'request' | 'step';
}

/**
 * Rate limits of spec part 8. The route table (api/routes/table.ts) names the limits of each route
 * and its pipeline applies them by `when`; the OpenAPI document describes them from here.
 */
export const RATE_LIMITS = {
  reportPerKey: { limit: 12, windowMs: MINUTE, per: 'server key', unit: 'reports', when: 'request' },
  reportPerIp: { limit: 120, windowMs: MINUTE, per: 'IP', unit: 'reports', when: 'request' },
  revokePerIp: { limit: 20, windowMs: MINUTE, per: 'IP', unit: 'requests', when: 'request' },
  pluginClaimPerIp: { limit: 10, windowMs: MINUTE, per: 'IP', unit: 'requests', when: 'request' },
  selfClaimProbePerIp: { limit: 10, windowMs: MINUTE, per: 'IP', unit: 'game-server checks', when: 'step' },
  uncachedMapsPerIp: {
    limit: 20,
    windowMs: MINUTE,
    per: 'IP',
    unit: 'seeds not generated yet',
    when: 'step',
  },
  statsPerIp: { limit: 20, windowMs: MINUTE, per: 'IP', unit: 'answers not cached', when: 'step' },
  previewRendersPerIp: { limit: 20, windowMs: MINUTE, per: 'IP', unit: 'pictures not cached', when: 'step' },
} as const satisfies Record<string, RateLimit>;
export type RateLimitName = keyof typeof RATE_LIMITS;

/** Generation queue: a job whose worker went silent this long goes back to the queue. */
export const JOB_VISIBILITY_MS = 30_000;
export const JOB_MAX_ATTEMPTS = 3;
/** Detections are counted over the last 24 hours and 7 days. */
export const DETECTION_WINDOWS_MS = { '24h': 24 * 60 * MINUTE, '7d': 7 * 24 * 60 * MINUTE } as const;

/** A generator worker counts as present while its last heartbeat is this recent. */
export const WORKER_SEEN_MS = 30_000;
/** How often a generator worker heartbeats (well inside WORKER_SEEN_MS). */
export const WORKER_BEAT_MS = 10_000;
/** Readiness: Redis must answer a PING within this. */
export const READY_PING_MS = 500;

/** Spec 4.1 and 4.4: a registration's label (clientName, an HTTP key's label) and the version texts. */
export const LABEL_MAX = 64;
export const VERSION_TEXT_MAX = 32;
