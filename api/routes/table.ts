import { z } from 'zod';
import { MapSchema } from '../../generator/index.ts';
import { VERSION_CACHE_SECONDS } from '../../store/index.ts';
import {
  BlockedSchema,
  ClaimReviewSchema,
  DbUnavailableSchema,
  DetectionBodySchema,
  JobSchema,
  LivenessSchema,
  MapPendingSchema,
  MapUnavailableSchema,
  OverviewSchema,
  PluginClaimBodySchema,
  PluginOutdatedSchema,
  ProtectionSchema,
  RateLimitedSchema,
  ReadySchema,
  ReportBodySchema,
  ReportResponseSchema,
  RevokeResponseSchema,
  SeedPageSchema,
  SelfClaimBodySchema,
  TooManyCredentialsSchema,
  UnreadySchema,
  VerifiedClaimSchema,
  VersionInfoSchema,
} from '../schemas.ts';
import {
  at,
  bodyAnswers,
  dbUnavailable,
  error,
  EXAMPLE_CREDENTIAL,
  EXAMPLE_DOWNLOAD,
  EXAMPLE_SEED,
  mapExample,
  rateLimited,
  RETRY_AFTER,
} from './answers.ts';
import { recordDetection } from './detections.ts';
import { readJob } from './jobs.ts';
import { readMap } from './maps.ts';
import { seedPageQuery, seedParam } from './params.ts';
import { pluginClaim } from './plugin-claim.ts';
import { decideReport } from './report.ts';
import { revokeKey } from './revoke.ts';
import { readSeedPage } from './seeds.ts';
import { selfClaim } from './self-claim.ts';
import { readOverview, readProtection } from './stats.ts';
import { readVersion } from './version.ts';
import { route, type Answer, type Route, type ScriptAdmission } from './route.ts';

// Every route of the API, each declared once (route.ts): adding a route is an entry here and its
// handler. Each route's pipeline is compiled from its entry (pipeline.ts), for the front door
// (front-door.ts) and express (app.ts) alike; the metrics labels and the OpenAPI document
// (openapi.ts, which adds its own route) are made from this list, and the contract test walks it,
// producing every documented answer for real.

const verified = {
  status: 'verified',
  serverId: '5b0f8c1e-2d4a-4f6b-9c3e-7a1d2b3c4d5e',
  credential: EXAMPLE_CREDENTIAL,
  issuedAt: at('07:55'),
};
const blocked: Answer = {
  description: '`blocked`, with blockedUntil unless permanent',
  schema: BlockedSchema,
  headers: { 'Cache-Control': '`no-store`' },
  example: { error: 'blocked', blockedUntil: at('09:00') },
};
const pluginOutdated: Answer = {
  description: '`plugin_outdated`: the plugin is below the minimum; `downloadUrl` is `""` when unknown',
  schema: PluginOutdatedSchema,
  example: { error: 'plugin_outdated', minimum: '1.2.0', downloadUrl: EXAMPLE_DOWNLOAD },
};
const mapUnavailable = (what: string): Answer => ({
  description: `\`map unavailable\` (status busy): ${what}; or \`db unavailable\``,
  schema: z.union([MapUnavailableSchema, DbUnavailableSchema]),
  headers: { 'Retry-After': RETRY_AFTER },
  example: { status: 'busy', error: 'map unavailable' },
});
/**
 * What both report routes share: one block engine behind both, and one script that judges the
 * limits and the key with the decision (routes/report.ts).
 */
const admittedInScript: ScriptAdmission = { admitOnly: (store, sender) => store.admitReport(sender) };
const report = {
  auth: 'serverKey',
  limits: ['reportPerIp', 'reportPerKey'],
  admittedInScript,
  body: ReportBodySchema,
  bodyExample: { event: 'round_start', seed: 123456, port: 7777, pluginVersion: '1.2.0' },
  hot: true,
  handler: decideReport,
} as const;
const reportAccepted: Answer = {
  description:
    "Accepted. `blockedUntil` is the open window's end, or null with `exhausted` (budget spent) or " +
    '`reason` (`cooldown`, `gap`, `busy`; for a round_end `closed`, `not_open` or `other_key`)',
  schema: ReportResponseSchema,
  example: { ok: true, blockedUntil: at('09:00') },
};
const reportAnswers = {
  200: reportAccepted,
  ...bodyAnswers,
  401: error(['invalid credential']),
  429: rateLimited,
};
const statsCache = '`public, max-age=N`: N the seconds left of the 60 s this process caches the answer';
const probeCache = '`no-store`';

export const ROUTES: readonly Route[] = [
  route({
    id: 'selfClaim',
    tag: 'servers',
    method: 'post',
    path: '/v1/servers/claim',
    summary: 'Self-claim a credential after a live game-server probe (4.1)',
    limits: ['selfClaimProbePerIp'],
    body: SelfClaimBodySchema,
    bodyExample: { port: 7777, clientName: 'my server', gameVersion: '14.1.2' },
    responses: {
      200: { description: 'Issued', schema: VerifiedClaimSchema, example: verified },
      ...bodyAnswers,
      403: error(['no game server', 'private address']),
      409: error(['address in use']),
      429: {
        description:
          '`too many credentials` (with live, max), or `rate limited` (one claim per 5 minutes, ' +
          '10 server checks per minute)',
        schema: z.union([TooManyCredentialsSchema, RateLimitedSchema]),
        headers: { 'Retry-After': RETRY_AFTER },
        example: { error: 'too many credentials', live: 3, max: 3 },
      },
    },
    handler: selfClaim,
  }),
  route({
    id: 'serverReport',
    tag: 'servers',
    method: 'post',
    path: '/v1/servers/report',
    summary: 'Report the seed of the current round (4.2)',
    ...report,
    responses: reportAnswers,
  }),
  route({
    id: 'revokeKey',
    tag: 'servers',
    method: 'post',
    path: '/v1/servers/revoke',
    summary: 'Revoke the presented server key (4.3)',
    auth: 'serverKey',
    keyFromAnyIp: true,
    limits: ['revokePerIp'],
    responses: {
      200: { description: 'Revoked', schema: RevokeResponseSchema, example: { ok: true } },
      401: error(['invalid credential']),
      429: rateLimited,
      503: dbUnavailable,
    },
    handler: revokeKey,
  }),
  route({
    id: 'pluginClaim',
    tag: 'plugin',
    method: 'post',
    path: '/plugin/v1/claim',
    summary: 'Register a game server with a chat-platform code (4.4)',
    limits: ['pluginClaimPerIp'],
    body: PluginClaimBodySchema,
    bodyExample: { code: 'ABCDE-FGHJK', port: 7777, pluginVersion: '1.2.0' },
    pluginMinimum: true,
    responses: {
      200: { description: 'Verified', schema: VerifiedClaimSchema, example: verified },
      202: {
        description: 'Manual review; resend later',
        schema: ClaimReviewSchema,
        example: { status: 'review', reason: 'port_mismatch', retryAfterSeconds: 60 },
      },
      ...bodyAnswers,
      401: error(['invalid code']),
      403: error(['claim rejected']),
      426: pluginOutdated,
      429: rateLimited,
    },
    handler: pluginClaim,
  }),
  route({
    id: 'pluginReport',
    tag: 'plugin',
    method: 'post',
    path: '/plugin/v1/report',
    summary: 'Report the seed of the current round from the plugin (4.5)',
    ...report,
    pluginMinimum: true,
    responses: { ...reportAnswers, 426: pluginOutdated },
  }),
  route({
    id: 'pluginVersion',
    tag: 'plugin',
    method: 'get',
    path: '/plugin/v1/version',
    summary: 'Latest and minimum plugin versions (4.6)',
    responses: {
      200: {
        description: 'Version info',
        schema: VersionInfoSchema,
        headers: { 'Cache-Control': `\`public, max-age=${VERSION_CACHE_SECONDS}\`` },
        example: { latest: '1.3.0', minimum: '1.2.0', downloadUrl: EXAMPLE_DOWNLOAD },
      },
    },
    handler: readVersion,
  }),
  route({
    id: 'readMap',
    tag: 'maps',
    method: 'get',
    path: '/maps/{seed}',
    summary: 'The map of a seed; queues generation when missing (4.7)',
    params: { seed: seedParam },
    limits: ['uncachedMapsPerIp'],
    responses: {
      200: {
        description: 'Map (shortened here to one room, spawn, door and tesla gate)',
        schema: MapSchema,
        headers: {
          ETag: 'Names these bytes in this content coding',
          'Cache-Control': '`public, no-cache`: every cache revalidates (a window may open at any time)',
        },
        example: mapExample,
      },
      202: {
        description: 'Generation queued',
        schema: MapPendingSchema,
        headers: { 'Cache-Control': '`no-store`' },
        example: { status: 'pending', job: 'queued' },
      },
      304: {
        description: 'Not modified: If-None-Match names the current ETag',
        headers: { ETag: 'The current ETag', 'Cache-Control': '`public, no-cache`' },
      },
      400: error(['invalid seed']),
      403: blocked,
      429: rateLimited,
      503: mapUnavailable('generation queue full or generation failed'),
    },
    hot: true,
    logSample: (config) => config.MAP_READ_LOG_SAMPLE,
    handler: readMap,
  }),
  route({
    id: 'readJob',
    tag: 'maps',
    method: 'get',
    path: '/jobs/{seed}',
    summary: 'Generation job of a seed (4.8)',
    params: { seed: seedParam },
    responses: {
      200: {
        description: 'Job',
        schema: JobSchema,
        headers: { 'Cache-Control': '`no-store`' },
        example: { seed: EXAMPLE_SEED, status: 'queued', ahead: 3 },
      },
      400: error(['invalid seed']),
      403: { ...blocked, description: '`blocked`' },
      503: mapUnavailable('generation queue full'),
    },
    handler: readJob,
  }),
  route({
    id: 'listSeeds',
    tag: 'maps',
    method: 'get',
    path: '/seeds',
    summary: 'Known seeds, newest dump first, paged by cursor (4.9)',
    query: seedPageQuery,
    responses: {
      200: {
        description: 'A page',
        schema: SeedPageSchema,
        headers: { 'Cache-Control': '`no-store`' },
        example: {
          items: [{ seed: 987654, roomCount: 104, spawns: 212, markers: 0, dumped: true, detected: false }],
          total: 1200,
          nextCursor: 987654,
        },
      },
      400: error(
        ['invalid cursor', 'invalid request'],
        '`field` of `invalid request` names the parameter that failed',
      ),
      503: dbUnavailable,
    },
    hot: true,
    handler: readSeedPage,
  }),
  route({
    id: 'overviewStats',
    tag: 'stats',
    method: 'get',
    path: '/stats/overview',
    summary: 'Overview statistics, cached 60 s (4.10)',
    limits: ['statsPerIp'],
    responses: {
      200: {
        description: 'Overview',
        schema: OverviewSchema,
        headers: { 'Cache-Control': statsCache },
        example: {
          seedsTracked: 1200,
          seedsDumped: 1150,
          seedsDetected: 40,
          requestsTotal: 98_000,
          detections: { '24h': 3, '7d': 19 },
          uptimeSec: 86_400,
        },
      },
      429: rateLimited,
      503: dbUnavailable,
    },
    handler: readOverview,
  }),
  route({
    id: 'protectionStats',
    tag: 'stats',
    method: 'get',
    path: '/stats/protection',
    summary: 'Protection statistics, cached 60 s (4.11)',
    limits: ['statsPerIp'],
    responses: {
      200: {
        description: 'Protection',
        schema: ProtectionSchema,
        headers: {
          'Cache-Control': 'How long a cache may keep the answer (the seeds of open windows never show)',
        },
        example: {
          seeds: 12,
          windows: 15,
          viewAttemptsBlocked: 4,
          recent: [
            { seed: 123456, at: at('08:00'), endedAt: at('08:23'), viewAttempts: 2, keyKind: 'plugin' },
          ],
        },
      },
      429: rateLimited,
      503: dbUnavailable,
    },
    handler: readProtection,
  }),
  route({
    id: 'recordDetection',
    tag: 'admin',
    method: 'post',
    path: '/admin/v1/detections',
    summary: 'A sighting from the seed detector',
    auth: 'adminToken',
    body: DetectionBodySchema,
    bodyExample: { seed: EXAMPLE_SEED },
    responses: {
      200: {
        description: 'Recorded (false while the seed is blocked)',
        schema: z.object({ seed: z.number().int(), recorded: z.boolean() }),
        example: { seed: EXAMPLE_SEED, recorded: true },
      },
      ...bodyAnswers,
      401: error(['invalid token']),
    },
    handler: recordDetection,
  }),
  route({
    id: 'liveness',
    tag: 'operations',
    method: 'get',
    path: '/healthz',
    outsidePrefix: true,
    summary: 'Liveness: answers while the process runs (HEAD too; never logged or rate-limited)',
    responses: {
      200: {
        description: 'Alive',
        schema: LivenessSchema,
        headers: { 'Cache-Control': probeCache },
        example: { status: 'ok' },
      },
    },
  }),
  route({
    id: 'readiness',
    tag: 'operations',
    method: 'get',
    path: '/readyz',
    outsidePrefix: true,
    summary:
      'Readiness: Redis answers a PING within 500 ms, the Lua scripts are loaded, the viewer is built; ' +
      'also the generator workers seen in the last 30 s and the queue depth, and in details the replicas an ' +
      "acknowledged write waits for and this process's clock skew from Redis (HEAD too; never logged or rate-limited)",
    responses: {
      200: {
        description: 'Ready',
        schema: ReadySchema,
        headers: { 'Cache-Control': probeCache },
        example: {
          status: 'ready',
          checks: { redis: { ok: true }, scripts: { ok: true }, viewer: { ok: true } },
          generators: { workers: 2, waiting: 0, active: 1, stalled: false },
          details: { replicasAck: 1, replicasAckTimeoutMs: 250, clockSkewMs: 3, clockSkewed: false },
        },
      },
      503: {
        description: '`not ready`: failed names each check that did not pass, checks says why',
        schema: UnreadySchema,
        headers: { 'Cache-Control': probeCache, 'Retry-After': RETRY_AFTER },
        example: {
          status: 'unready',
          error: 'not ready',
          failed: ['redis'],
          checks: {
            redis: { ok: false, error: 'no answer to PING within 500 ms' },
            scripts: { ok: false, error: 'Redis is unreachable' },
            viewer: { ok: true },
          },
          generators: null,
          details: { replicasAck: 1, replicasAckTimeoutMs: 250, clockSkewMs: null, clockSkewed: false },
        },
      },
    },
  }),
];
