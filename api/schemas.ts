import { z } from 'zod';
import {
  DoorSchema,
  LayoutsSchema,
  MapSchema,
  RoomSchema,
  SpawnSchema,
  TeslaSchema,
  ZoneSchema,
  RoomShapeSchema,
  ConnSchema,
} from '../generator/map-schema.ts';
import { HttpError, invalidRequest } from './http/http-error.ts';
import {
  LABEL_MAX,
  VERSION_TEXT_MAX,
  CREDENTIAL_KINDS,
  NO_WINDOW_REASONS,
  PORT_MAX,
  PORT_MIN,
  REPORT_EVENTS,
  SEED_MAX,
  SEED_MIN,
  SEEDS_PAGE_MAX,
} from '../store/constants.ts';

// The contract of every body we read or write (spec part 4), in one place. Types come from here
// (the viewer's too, as type-only imports); no field is coerced, so a string in a numeric field is
// 400. The schemas a client meets by name are in `apiSchemas`: each is one named component of the
// OpenAPI document (openapi.ts).

/** The named schemas of the OpenAPI document (components.schemas), by their id. */
export const apiSchemas = z.registry<{ id: string }>();
const named = <T extends z.ZodType>(id: string, schema: T): T => {
  apiSchemas.add(schema, { id });
  return schema;
};
named('Map', MapSchema);
named('Room', RoomSchema);
named('RoomConnection', ConnSchema);
named('Spawn', SpawnSchema);
named('Door', DoorSchema);
named('Tesla', TeslaSchema);
named('Layouts', LayoutsSchema);
named('Zone', ZoneSchema);
named('RoomShape', RoomShapeSchema);

export const SeedSchema = z.number().int().min(SEED_MIN).max(SEED_MAX);
export const PortSchema = z.number().int().min(PORT_MIN).max(PORT_MAX);
const text = (max: number) => z.string().min(1).max(max);
/** A time we write: ISO-8601 UTC with milliseconds (`2026-03-01T09:00:00.000Z`). */
const isoUtc = z.iso.datetime({ offset: false, local: false });
// RFC 3339 date-time, every form: `T` or `t`, `Z`, `z` or a `±hh:mm` offset, any number of
// fractional digits, a leap second (:60). What Python's isoformat() and .NET's "o" write passes.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The instant an RFC 3339 text names, in ms, or NaN when it names none (2026-02-30, 25:00). */
export function rfc3339Ms(text: string): number {
  const m = RFC3339.exec(text);
  if (!m) return NaN;
  const n = (group: number) => Number(m[group] ?? 0);
  const [year, month, day, hour, minute, second] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  const [offsetHours, offsetMinutes] = [n(9), n(10)];
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day); // Date.UTC would read years 0..99 as 19xx
  const valid =
    calendar.getUTCFullYear() === year &&
    calendar.getUTCMonth() === month - 1 &&
    calendar.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 60 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  if (!valid) return NaN;
  // Milliseconds from the digits themselves (0.57 * 1000 is 569.99… in floating point).
  const fraction = m[7] ? Number(m[7].slice(1, 4).padEnd(3, '0')) : 0;
  const offsetMs = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return calendar.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + fraction - offsetMs;
}

/**
 * A time a client sends: any RFC 3339 date-time, kept as the same instant in UTC (isoUtc's form).
 * A text that is no such time is 400 like any malformed field (naming it); so is a space for the
 * `T`, which ISO 8601 (the spec's form) does not allow. A year is taken as written, in ISO 8601's
 * Gregorian calendar: a well-formed time is never refused as implausible (spec 4.5: every
 * well-formed report answers 200), and no decision reads it (docs/api.md, "Times you send").
 */
export const Rfc3339Schema = z
  .stringFormat('date-time', (text) => !Number.isNaN(rfc3339Ms(text)))
  .transform((text) => new Date(rfc3339Ms(text)).toISOString());

// Error bodies: `{error}` with one of the strings a status may carry, plus named fields for some.
const errorShapes = new Map<string, z.ZodType>();
const INVALID_REQUEST = 'invalid request';
/**
 * Added in v1 (additive): the body field or query parameter `invalid request` is about, absent when
 * the body as a whole is wrong (not JSON, not an object).
 */
const FailedFieldSchema = z.string().optional();
/** `{error}` with one of `errors`, named for them (`invalid credential` → InvalidCredentialError). */
export function errorShape(errors: readonly [string, ...string[]]): z.ZodType {
  const id = `${errors
    .map((e) =>
      e
        .replace(/\(.*\)/, '')
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join(''),
    )
    .join('Or')}Error`;
  let shape = errorShapes.get(id);
  if (!shape) {
    const error = z.enum(errors);
    const fields = errors.includes(INVALID_REQUEST) ? { error, field: FailedFieldSchema } : { error };
    errorShapes.set(id, (shape = named(id, z.object(fields))));
  }
  return shape;
}
export const DbUnavailableSchema = errorShape(['db unavailable']);
export const RateLimitedSchema = errorShape(['rate limited']);

/** 4.1 */
export const SelfClaimBodySchema = named(
  'SelfClaimBody',
  z.object({
    port: PortSchema,
    clientName: text(LABEL_MAX).optional(),
    gameVersion: text(VERSION_TEXT_MAX).optional(),
  }),
);
export type SelfClaimBody = z.infer<typeof SelfClaimBodySchema>;

/** 4.4 */
export const PluginClaimBodySchema = named(
  'PluginClaimBody',
  z.object({
    code: text(128),
    port: PortSchema,
    pluginVersion: text(VERSION_TEXT_MAX).optional(),
    gameVersion: text(VERSION_TEXT_MAX).optional(),
    labApiVersion: text(VERSION_TEXT_MAX).optional(),
  }),
);
export type PluginClaimBody = z.infer<typeof PluginClaimBodySchema>;

/** 202 of 4.4 */
export const ClaimReviewSchema = named(
  'ClaimReview',
  z.object({
    status: z.literal('review'),
    reason: z.enum(['ip_mismatch', 'port_mismatch']),
    retryAfterSeconds: z.number().int(),
  }),
);

/** 200 of 4.1 and 4.4: the credential is shown this once. */
export const VerifiedClaimSchema = named(
  'VerifiedClaim',
  z.object({
    status: z.literal('verified'),
    serverId: z.uuid(),
    credential: z.string(),
    issuedAt: isoUtc,
  }),
);

export const TooManyCredentialsSchema = named(
  'TooManyCredentialsError',
  z.object({
    error: z.literal('too many credentials'),
    live: z.number().int(),
    max: z.number().int(),
  }),
);

/** 4.5 (and 4.2, which uses event, seed and port of it). */
export const ReportBodySchema = named(
  'ReportBody',
  z.object({
    event: z.enum(REPORT_EVENTS),
    seed: SeedSchema,
    port: PortSchema,
    roundId: text(LABEL_MAX).optional(),
    roundStartedAt: Rfc3339Schema.optional(),
    elapsedSeconds: z.number().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    pluginVersion: text(VERSION_TEXT_MAX).optional(),
  }),
);
export type ReportBody = z.infer<typeof ReportBodySchema>;

export const ReportResponseSchema = named(
  'ReportAccepted',
  z.object({
    ok: z.literal(true),
    blockedUntil: isoUtc.nullable(),
    exhausted: z.literal(true).optional(),
    /**
     * Added in v1 (additive): why no window is open, whenever blockedUntil is null without
     * exhausted. A round_end answers `closed` only when it closed this key's window of the seed,
     * `not_open` when the seed had no open window, `other_key` when another key's window holds it.
     */
    reason: z.enum(NO_WINDOW_REASONS).optional(),
  }),
);
export type ReportResponse = z.infer<typeof ReportResponseSchema>;

/** 4.3: the key to revoke is the bearer credential; no body is needed. */
export const RevokeResponseSchema = named('RevokeAccepted', z.object({ ok: z.literal(true) }));

/** 2.9 */
export const VersionInfoSchema = named(
  'VersionInfo',
  z.object({
    latest: z.string().nullable(),
    minimum: z.string().nullable(),
    downloadUrl: z.string().nullable(),
  }),
);

/** 426 of claim and report. */
export const PluginOutdatedSchema = named(
  'PluginOutdatedError',
  z.object({
    error: z.literal('plugin_outdated'),
    minimum: z.string(),
    downloadUrl: z.string(),
  }),
);

/** POST /__test__/clock, only with SEEDBLOCK_CLOCK=manual. */
export const ClockMoveSchema = z.union([
  z.object({ set: z.iso.datetime({ offset: true }) }).strict(),
  z.object({ advanceMs: z.number().int().min(-1e12).max(1e12) }).strict(),
]);
export const ClockResponseSchema = z.object({ now: isoUtc });

// The read API (4.7-4.11). Path and query values are text: only plain decimal integers pass
// (`01`, `1e3`, `-1`, `2147483648` are all malformed).
const decimalText = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number);
export const SeedParamSchema = decimalText.pipe(SeedSchema);
/** GET /seeds `limit`: items per page. */
export const SeedsPageLimitSchema = decimalText.pipe(z.number().int().min(1).max(SEEDS_PAGE_MAX));

export const MapPendingSchema = named(
  'MapPending',
  z.object({ status: z.literal('pending'), job: z.literal('queued') }),
);
export const MapUnavailableSchema = named(
  'MapUnavailableError',
  z.object({
    status: z.literal('busy'),
    error: z.literal('map unavailable'),
  }),
);
export const BlockedSchema = named(
  'BlockedError',
  z.object({ error: z.literal('blocked'), blockedUntil: isoUtc.optional() }),
);

/** 2.6 */
export const JobSchema = named(
  'Job',
  z.object({
    seed: SeedSchema,
    status: z.enum(['queued', 'running', 'ready', 'error']),
    ahead: z.number().int().min(0).optional(),
    error: z.string().optional(),
  }),
);
export type Job = z.infer<typeof JobSchema>;

/** 2.5 and 4.9 */
export const SeedListItemSchema = named(
  'SeedListItem',
  z.object({
    seed: SeedSchema,
    roomCount: z.number().int(),
    spawns: z.number().int(),
    markers: z.number().int(),
    dumped: z.boolean(),
    detected: z.boolean(),
  }),
);
export type SeedListItem = z.infer<typeof SeedListItemSchema>;
export const SeedPageSchema = named(
  'SeedList',
  z.object({
    items: z.array(SeedListItemSchema),
    total: z.number().int(),
    nextCursor: SeedSchema.nullable(),
  }),
);
export type SeedList = z.infer<typeof SeedPageSchema>;

/** 2.8 */
export const OverviewSchema = named(
  'OverviewStats',
  z.object({
    seedsTracked: z.number().int(),
    seedsDumped: z.number().int(),
    seedsDetected: z.number().int(),
    requestsTotal: z.number().int(),
    detections: z.object({ '24h': z.number().int(), '7d': z.number().int() }),
    uptimeSec: z.number().int(),
  }),
);
export type OverviewStats = z.infer<typeof OverviewSchema>;

/** 2.7: one of the windows that ended lately. */
export const ProtectionWindowSchema = named(
  'ProtectionWindow',
  z.object({
    seed: SeedSchema,
    at: isoUtc,
    endedAt: isoUtc,
    viewAttempts: z.number().int(),
    /** Added in v1 (additive): the kind of key that held the window; absent for older windows. */
    keyKind: z.enum(CREDENTIAL_KINDS).optional(),
  }),
);
export type ProtectionWindow = z.infer<typeof ProtectionWindowSchema>;
/** 2.7 */
export const ProtectionSchema = named(
  'ProtectionStats',
  z.object({
    seeds: z.number().int(),
    windows: z.number().int(),
    viewAttemptsBlocked: z.number().int(),
    recent: z.array(ProtectionWindowSchema),
  }),
);
export type ProtectionStats = z.infer<typeof ProtectionSchema>;

/** POST /admin/v1/detections: a sighting from the seed detector. */
export const DetectionBodySchema = named('DetectionBody', z.object({ seed: SeedSchema }));
export type DetectionBody = z.infer<typeof DetectionBodySchema>;

/**
 * The field a failed parse names: the path of its first issue (`port`, `items.0.seed`), or
 * undefined when the value as a whole is wrong (not an object, a union no branch of which fits).
 * A path is made of the schema's own keys and indexes, never of text the client sent.
 */
const failedField = (error: z.ZodError): string | undefined => error.issues[0]?.path.join('.') || undefined;

/**
 * Parses `value` with `schema`, or throws the spec's 400: `error` as given, or `invalid request`
 * naming the field that failed.
 */
export function parseOr400<T>(schema: z.ZodType<T>, value: unknown, error?: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw error === undefined ? invalidRequest(failedField(parsed.error)) : new HttpError(400, error);
}

/** GET /healthz: liveness, answered while the event loop runs. */
export const LivenessSchema = named('Liveness', z.object({ status: z.literal('ok') }));

/** One readiness check: passed, or why not. */
const ReadyCheckSchema = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export const READY_CHECKS = ['redis', 'scripts', 'viewer'] as const;
export type ReadyCheckName = (typeof READY_CHECKS)[number];
export type ReadyCheck = z.infer<typeof ReadyCheckSchema>;
const ReadyChecksSchema = z.object({
  redis: ReadyCheckSchema,
  scripts: ReadyCheckSchema,
  viewer: ReadyCheckSchema,
});

/**
 * The generator workers seen in the last 30 s and the queue depth; `stalled` when jobs wait and
 * no worker is there (reported, not a failed check). Null when Redis could not be read.
 */
export const GeneratorsSchema = named(
  'Generators',
  z.object({
    workers: z.number().int().min(0),
    waiting: z.number().int().min(0),
    active: z.number().int().min(0),
    stalled: z.boolean(),
  }),
);
export type Generators = z.infer<typeof GeneratorsSchema>;

/**
 * Settings and states worth seeing that fail no check: the replicas an acknowledged write waits for
 * now (REDIS_REPLICAS_ACK, or every replica the master lists online) and how long
 * (REDIS_REPLICAS_ACK_TIMEOUT_MS); whether they confirmed the last write or probe in time
 * (`replicasAckable`: false while window-opening reports answer 503) and how many did
 * (`replicasConfirmed` of `replicasAck`); whether this process's Redis is confirmed as the current
 * master (`masterConfirmed`: false while reads answer 503, as in a partition); this process's clock
 * minus Redis's (`clockSkewMs`, null when Redis could not be read) and whether it is past 2 s
 * (`clockSkewed`). Readiness stays 200 for all of them: every process shares the master, so
 * taking them all out of rotation would help nobody.
 */
export const ReadyDetailsSchema = named(
  'ReadinessDetails',
  z.object({
    replicasAck: z.number().int().min(0),
    replicasAckTimeoutMs: z.number().int().min(0),
    replicasAckable: z.boolean(),
    replicasConfirmed: z.number().int().min(0),
    masterConfirmed: z.boolean(),
    clockSkewMs: z.number().int().nullable(),
    clockSkewed: z.boolean(),
  }),
);
export type ReadyDetails = z.infer<typeof ReadyDetailsSchema>;

/** GET /readyz, 200. */
export const ReadySchema = named(
  'Readiness',
  z.object({
    status: z.literal('ready'),
    checks: ReadyChecksSchema,
    generators: GeneratorsSchema.nullable(),
  }),
);
/** GET /readyz, 503: `failed` names each check that did not pass. */
export const UnreadySchema = named(
  'UnreadyError',
  z.object({
    status: z.literal('unready'),
    error: z.literal('not ready'),
    failed: z.array(z.enum(READY_CHECKS)).min(1),
    checks: ReadyChecksSchema,
    generators: GeneratorsSchema.nullable(),
  }),
);
